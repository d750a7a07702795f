// Stand-in for the AscendC header basic_api/kernel_basic_intf.h, which asc-devkit's programs include directly: its
// declarations are part of the simulator's kernel API (kernel_operator.h).
#pragma once

#include "kernel_operator.h"
