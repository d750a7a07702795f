// Test fixture written for SAGE: the tiling of TinyAccumulate.
#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TinyAccumulateTiling)
TILING_DATA_FIELD_DEF(uint32_t, total);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(TinyAccumulate, TinyAccumulateTiling)
} // namespace optiling
