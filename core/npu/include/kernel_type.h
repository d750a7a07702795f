// Stand-in for the AscendC header kernel_type.h, which real kernels include directly: its
// declarations are part of the simulator's kernel API (kernel_operator.h).
#pragma once

#include "kernel_operator.h"
