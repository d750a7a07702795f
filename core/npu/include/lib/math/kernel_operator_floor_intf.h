// Stand-in for the AscendC library header lib/math/kernel_operator_floor_intf.h: the floor function of the math library (kernel_vec_math.h).
#pragma once

#include "kernel_operator.h"
