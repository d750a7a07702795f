// Stand-in for the AscendC library header lib/sigmoid/kernel_operator_sigmoid_intf.h: Sigmoid (kernel_vec.h).
#pragma once

#include "kernel_operator.h"
