// kernel_operator_intf.h: an AscendC header that some kernels include directly; the simulator declares
// everything it offers in kernel_operator.h.
#pragma once

#include "kernel_operator.h"
