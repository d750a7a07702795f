// Stand-in for the AscendC header basic_api/kernel_vec_intf.h: the vector instructions of the basic API, part of the
// simulator's kernel API (kernel_operator.h).
#pragma once

#include "kernel_operator.h"
