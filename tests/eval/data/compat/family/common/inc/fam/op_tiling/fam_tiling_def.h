// Test fixture written here: a tiling class shared by a family of ops, registered per op type.
#pragma once
#include "register/tilingdata_base.h"
namespace optiling {
constexpr uint16_t FAM_MAX_PARTS = 4;
BEGIN_TILING_DATA_DEF(FamTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, totalLength);
    TILING_DATA_FIELD_DEF_ARR(uint32_t, FAM_MAX_PARTS, partLength);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(FamNeg, FamTilingData)
REGISTER_TILING_DATA_CLASS(FamAbs, FamTilingData)
}
