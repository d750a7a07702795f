// Test fixture written for SAGE: the out-of-line half of PairTilingBase.
#include "pair_tiling_base.h"
#include "util/platform_util.h"

namespace optiling {
PairTilingBase::~PairTilingBase() = default;
uint32_t PairTilingBase::Blocks(uint32_t total) const {
    const uint32_t cores = Ops::Base::GetAivCoreNum(context_);
    const uint32_t wanted = (total + 1023) / 1024;
    return wanted == 0 ? 1 : wanted < cores ? wanted : cores;
}
} // namespace optiling
