// kernel_basic_intf.h by bare name: CANN's common/inc/op_kernel/platform.h (ops-nn, ops-cv) includes it
// so, with basic_api/ on its include path; the simulator declares everything it offers in kernel_operator.h.
#pragma once

#include "kernel_operator.h"
