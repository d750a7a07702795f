// Test fixture written for SAGE: ListSum's tiling.
#pragma once
#include <cstdint>

struct ListSumTilingData {
    uint32_t count;     // tensors in the list
    uint32_t elements;  // elements per tensor
};
