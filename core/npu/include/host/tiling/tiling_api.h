// Kernel-side view of the CANN host header tiling/tiling_api.h: op tiling headers include it for
// TCubeTiling and the library tilings, which kernel_tiling/kernel_tiling.h declares.
#pragma once

#include "register/tilingdata_base.h"
