// Test fixture written for SAGE: ScalePair's tiling as a plain struct.
#pragma once
#include <cstdint>

struct ScalePairTilingData {
    uint32_t total;
    uint32_t perBlock;
    float factor;  // scale, negated when flags[0]
};
