// Stand-in for the AscendC library header lib/math/kernel_operator_asin_intf.h: the asin function of the math library (kernel_vec_math.h).
#pragma once

#include "kernel_operator.h"
