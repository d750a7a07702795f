// Stand-in for the AscendC library header lib/math/trunc.h (the newer name of kernel_operator_trunc_intf.h): the Trunc
// function of the math library (kernel_vec_math.h).
#pragma once

#include "kernel_operator.h"
