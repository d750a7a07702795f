// Stand-in for the AscendC library header lib/matmul_intf.h: the high-level Matmul API
// (kernel_matmul.h).
#pragma once

#include "kernel_matmul.h"
