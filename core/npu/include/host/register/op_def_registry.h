// Kernel-side view of the CANN host header register/op_def_registry.h, which op_host tiling headers include next
// to their BEGIN_TILING_DATA_DEF. The kernel needs only the tiling structs; the host API itself
// (TilingContext, OpDef, PlatformAscendC) is not declared here.
#pragma once

#include "register/tilingdata_base.h"
