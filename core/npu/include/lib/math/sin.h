// Stand-in for the AscendC library header lib/math/sin.h (the newer name of kernel_operator_sin_intf.h): the Sin
// function of the math library (kernel_vec_math.h).
#pragma once

#include "kernel_operator.h"
