// Test fixture written here: the tiling of a tiny op project (y = x * factor).
#include "register/tilingdata_base.h"

namespace optiling {
// A host constant with the name the kernel's own header also defines (the kernel must see only
// its own), and a host helper whose local constant is no member of optiling.
constexpr uint32_t SCALE_OP_CHUNK = 128;
inline uint32_t ScaleOpChunks(uint32_t n) {
    const uint32_t perChunk = SCALE_OP_CHUNK;
    return (n + perChunk - 1) / perChunk;
}
BEGIN_TILING_DATA_DEF(ScaleOpTiling)
TILING_DATA_FIELD_DEF(uint32_t, length);
TILING_DATA_FIELD_DEF(float, factor);
TILING_DATA_FIELD_DEF_ARR(uint32_t, 4, chunkStarts);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(ScaleOp, ScaleOpTiling)
} // namespace optiling
