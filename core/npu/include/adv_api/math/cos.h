// Stand-in for the AscendC library header adv_api/math/cos.h:
// the Cos function of the math library (kernel_vec_math.h).
#pragma once

#include "kernel_operator.h"
