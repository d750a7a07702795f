// Stand-in for the AscendC library header adv_api/math/asin.h:
// the Asin function of the math library (kernel_vec_math.h).
#pragma once

#include "kernel_operator.h"
