// Test fixture written for SAGE: the op's graph prototype (a REG_OP chain), which its tiling
// includes. It names data types the simulator does not have (DT_FP4X2_E2M1): never expanded.
#pragma once
#include "graph/operator_reg.h"

namespace ge {
REG_OP(ScalePair)
    .INPUT(x, TensorType({DT_FLOAT, DT_FP4X2_E2M1}))
    .OPTIONAL_INPUT(unused, TensorType::NumberType())
    .OUTPUT(z, TensorType({DT_FLOAT}))
    .ATTR(scale, Float, 1.0)
    .ATTR(flags, ListBool, {false, false})
    .OP_END_FACTORY_REG(ScalePair)
} // namespace ge
