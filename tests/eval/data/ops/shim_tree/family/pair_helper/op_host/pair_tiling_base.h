// Test fixture written for SAGE: a tiling base class another op's tiling derives from. Its
// virtual function is defined out of line, so the class's vtable lives only in pair_tiling_base.cpp.
#pragma once
#include "register/op_impl_registry.h"

namespace optiling {
class PairTilingBase {
public:
    explicit PairTilingBase(gert::TilingContext* context) : context_(context) {}
    virtual ~PairTilingBase();
    // Blocks for `total` elements: one per 1024, at most the vector cores.
    virtual uint32_t Blocks(uint32_t total) const;

protected:
    gert::TilingContext* context_;
};
} // namespace optiling
