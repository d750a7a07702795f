// Test fixture written for SAGE (not from any public project): the tiling of TinyScaleAdd.
#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TinyScaleAddTiling)
TILING_DATA_FIELD_DEF(uint32_t, total);      // elements
TILING_DATA_FIELD_DEF(uint32_t, perBlock);   // elements per block (a multiple of 8)
TILING_DATA_FIELD_DEF(float, alpha);
TILING_DATA_FIELD_DEF_ARR(uint32_t, 4, marks);  // an array field: 7, 8, 9, block count
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(TinyScaleAdd, TinyScaleAddTiling)
} // namespace optiling
