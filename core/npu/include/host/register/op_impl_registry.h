// The simulator's stand-in for the CANN host header register/op_impl_registry.h. op_host tiling
// headers include it next to their BEGIN_TILING_DATA_DEF; it brings the host context types
// (gert, ge) and the platform (platform_ascendc) so that declarations of tiling functions and
// inline host helpers in those headers compile.
#pragma once

#include "exe_graph/runtime/tiling_context.h"
#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"
#include "register/op_def.h"
// What the real header brings in transitively and op_host files use without including it: the
// bounded memory functions (memset_s, memcpy_s) and the standard containers.
#include "securec.h"

#include <map>
#include <set>
#include <string>
#include <vector>
