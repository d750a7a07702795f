// Stand-in for the AscendC library header lib/math/kernel_operator_log_intf.h: the log function of the math library (kernel_vec_math.h).
#pragma once

#include "kernel_operator.h"
