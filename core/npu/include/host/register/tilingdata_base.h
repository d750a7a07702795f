// The simulator's stand-in for the CANN host header register/tilingdata_base.h. An op's
// op_host/<op>_tiling.h includes it to declare its tiling with BEGIN_TILING_DATA_DEF; the macros
// (kernel_macros.h) make plain structs with set_/get_ accessors, which is what the real build's
// generated tiling header gives the kernel and what the host tiling function fills. It also
// brings the host API those headers use next to their tiling (ge, gert, platform_ascendc).
// Only the op project loader and `sage compat` put this directory on the include path.
#pragma once

#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"

#include "exe_graph/runtime/tiling_context.h"
#include "graph/types.h"
#include "tiling/platform/platform_ascendc.h"

#include <cstdio>
#include <memory>
#include <string>
#include <vector>
