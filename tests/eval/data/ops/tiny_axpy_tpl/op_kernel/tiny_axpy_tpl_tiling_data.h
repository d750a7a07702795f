// Test fixture written for SAGE (not from any public project): the tiling of TinyAxpyTpl as a
// plain struct, the way CANN's current op repositories declare it (no BEGIN_TILING_DATA_DEF).
#pragma once
#include <cstdint>

struct TinyAxpyTplTilingData {
    uint32_t total;     // elements
    uint32_t perBlock;  // elements per block (a multiple of the 32-byte block)
    float alpha;
};
