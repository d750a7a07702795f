// atvoss/elewise/elewise_base_struct.h: the tiling data of the elementwise schedule. An op's own
// tiling struct holds one as its first member (`baseTiling`), the schedule reads:
//   dim0        elements in total (every input and output has this many);
//   blockFormer elements each block handles (the last block takes the rest); 0: split evenly
//               over GetBlockNum();
//   ubFormer    elements per UB tile at most; 0: as many as fit in the schedule's UB budget.
// The other fields are informative (what a host tiling may fill) and not read.
#pragma once

#include <cstdint>

namespace Ops::Base {

struct EleBaseTilingFields {
    int64_t dim0 = 0;
    int64_t blockFormer = 0;
    int64_t blockNum = 0;
    int64_t ubFormer = 0;
    int64_t ubLoopOfFormerBlock = 0;
    int64_t ubLoopOfTailBlock = 0;
    int64_t ubTailOfFormerBlock = 0;
    int64_t ubTailOfTailBlock = 0;
    int64_t elemNum = 0;
};

struct EleBaseTilingData : EleBaseTilingFields {};
struct EleBaseTilingData16B : EleBaseTilingFields {};
struct EleBaseTilingData32B : EleBaseTilingFields {};
struct EleBaseTilingDataV2 : EleBaseTilingFields {};

} // namespace Ops::Base
