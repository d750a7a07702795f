// Stand-in for the AscendC header basic_api/kernel_operator_list_tensor_intf.h: the tensor lists of
// kernel_operator_list_tensor_intf.h under their newer path.
#pragma once

#include "../kernel_operator_list_tensor_intf.h"
