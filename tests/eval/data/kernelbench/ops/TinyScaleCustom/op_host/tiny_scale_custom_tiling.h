// Test fixture written for SAGE (not from any public project): the tiling of TinyScaleCustom.
#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TinyScaleTiling)
TILING_DATA_FIELD_DEF(uint32_t, total);     // elements
TILING_DATA_FIELD_DEF(uint32_t, perBlock);  // elements per block
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(TinyScaleCustom, TinyScaleTiling)
} // namespace optiling
