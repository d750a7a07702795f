// atvoss/broadcast/broadcast_base_struct.h: the tiling data of the broadcast schedule and the
// tiling-key declaration ops put in their ASCENDC_TPL_ARGS_DECL. BroadcastSch reads the
// BroadcastBaseTilingData at the start of the kernel's tiling bytes:
//   rank                 axes of the output (1..kBrcMaxRank);
//   outDims[a]           the output's extent on axis a;
//   inStrides[k][a]      element stride of input k on axis a, 0 where input k is broadcast;
//   blockFormer          output rows (all axes but the last) per block; 0: split evenly;
//   ubFormer             elements per UB tile at most; 0: what fits the schedule's UB budget.
#pragma once

#include <cstdint>

#include "ascendc/host_api/tiling/template_argument.h"

namespace Ops::Base {

constexpr int kBrcMaxRank = 8;
constexpr int kBrcMaxInputs = 8;

struct BroadcastBaseTilingData {
    int64_t rank = 0;
    int64_t outDims[kBrcMaxRank] = {};
    int64_t inStrides[kBrcMaxInputs][kBrcMaxRank] = {};
    int64_t blockFormer = 0;
    int64_t ubFormer = 0;
};

} // namespace Ops::Base

// The schedule-mode template argument of broadcast ops (kept in 4 bits of the tiling key).
#define BRC_TEMP_SCH_MODE_KEY_DECL(name) ASCENDC_TPL_UINT_DECL(name, 4, ASCENDC_TPL_UI_LIST, 0, 1)
#define BRC_TEMP_SCH_MODE_KEY_SEL(name) ASCENDC_TPL_UINT_SEL(name, ASCENDC_TPL_UI_LIST, 0, 1)
#define BRC_TEMP_SCH_CUSTOM_MODE_KEY_SEL(name, ...) ASCENDC_TPL_UINT_SEL(name, ASCENDC_TPL_UI_LIST, __VA_ARGS__)
