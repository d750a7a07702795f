// Stand-in for the AscendC header impl/dav_c220/kernel_operator_reg_others_impl.h, which real kernels include directly: its
// declarations are part of the simulator's kernel API (kernel_operator.h).
#pragma once

#include "kernel_operator.h"
