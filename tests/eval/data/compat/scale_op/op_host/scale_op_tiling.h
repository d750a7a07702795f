// Test fixture written here: the tiling of a tiny op project (y = x * factor).
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ScaleOpTiling)
TILING_DATA_FIELD_DEF(uint32_t, length);
TILING_DATA_FIELD_DEF(float, factor);
TILING_DATA_FIELD_DEF_ARR(uint32_t, 4, chunkStarts);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(ScaleOp, ScaleOpTiling)
} // namespace optiling
