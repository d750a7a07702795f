// atvoss/reduce/reduce_tiling_data.h: the tiling data of the reduce schedule. The input is seen as
// [outerSize, reduceSize, innerSize] (axes merged so that the reduced ones are contiguous) and the
// output as [outerSize, innerSize]:
//   outerSize, reduceSize, innerSize  the three extents (reduceSize 0: every output is the
//                                     empty value passed to Process);
//   blockFormer  outer rows per block; 0: split evenly over GetBlockNum();
//   ubFormer     elements per UB tile at most; 0: what fits the schedule's UB budget;
//   meanVar      a value ops pass to SetVar (1 / reduceSize for a mean).
#pragma once

#include <cstdint>

namespace Ops::Base {

struct ReduceOpTilingData {
    int64_t outerSize = 0;
    int64_t reduceSize = 0;
    int64_t innerSize = 1;
    int64_t blockFormer = 0;
    int64_t ubFormer = 0;
    float meanVar = 0.0f;
    float emptyValue = 0.0f;
};

} // namespace Ops::Base
