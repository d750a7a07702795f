// kernel_tiling/kernel_tiling.h: the tiling structs that real op kernels include by this path.
// The simulator's host tiling (sage op) fills the same structs, so the byte layout only has to
// agree between our own host shim and kernel headers; field names follow the AscendC docs so
// that kernels reading e.g. tiling.baseM compile unmodified.
#pragma once

#include <cstdint>

// Cube (Matmul) tiling: whole-problem sizes, one core's share, the base block and the L1 depths.
struct TCubeTiling {
    int32_t usedCoreNum = 0;
    int32_t M = 0, N = 0, Ka = 0, Kb = 0;
    int32_t singleCoreM = 0, singleCoreN = 0, singleCoreK = 0;
    int32_t baseM = 0, baseN = 0, baseK = 0;
    int32_t depthA1 = 0, depthB1 = 0;
    int32_t stepM = 0, stepN = 0;
    int32_t isBias = 0;
    int32_t transLength = 0;
    int32_t iterateOrder = 0;
    int32_t shareMode = 0, shareL1Size = 0, shareL0CSize = 0, shareUbSize = 0;
    int32_t batchM = 0, batchN = 0, singleBatchM = 0, singleBatchN = 0;
    int32_t stepKa = 0, stepKb = 0;
    int32_t depthAL1CacheUB = 0, depthBL1CacheUB = 0;
    int32_t dbL0A = 0, dbL0B = 0, dbL0C = 0;
    int32_t reserved = 0;
};

// Tilings of the reduction/normalisation library APIs, kept as opaque words: kernels pass them
// through to the library call without reading fields.
struct SoftMaxTiling {
    uint32_t words[16] = {};
};
struct LayerNormTiling {
    uint32_t words[32] = {};
};

// The same structs under the names newer kernels spell (`AscendC::tiling::TCubeTiling`).
namespace AscendC {
namespace tiling {
using ::LayerNormTiling;
using ::SoftMaxTiling;
using ::TCubeTiling;
} // namespace tiling
} // namespace AscendC
