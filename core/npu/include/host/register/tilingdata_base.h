// Kernel-side view of the CANN host header register/tilingdata_base.h. An op's
// op_host/<op>_tiling.h includes it to declare its tiling with BEGIN_TILING_DATA_DEF; on the
// kernel side those macros (kernel_macros.h) make plain structs, which is what the real build's
// generated tiling header gives the kernel. Only the op project loader and `sage compat` put this
// directory on the include path, and only for the tiling header they force-include.
#pragma once

#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"
