// Stand-in for the AscendC library header lib/matrix/matmul/matmul.h: the high-level Matmul API
// (kernel_matmul.h).
#pragma once

#include "kernel_matmul.h"
