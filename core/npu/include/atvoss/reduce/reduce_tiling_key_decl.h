// atvoss/reduce/reduce_tiling_key_decl.h: the template arguments of a reduce kernel. The host
// tiling's key names the axis pattern and loop shape; this schedule handles every pattern in
// one code path (ReduceOpTilingData gives the extents), so the arguments only select the
// kernel instantiation.
#pragma once

#include "ascendc/host_api/tiling/template_argument.h"

#define REDUCE_TPL_KEY_DECL()                                                                          \
    ASCENDC_TPL_UINT_DECL(PatternID, 8, ASCENDC_TPL_UI_RANGE, 1, 0, 255),                              \
        ASCENDC_TPL_UINT_DECL(LoopARCount, 8, ASCENDC_TPL_UI_RANGE, 1, 0, 255),                        \
        ASCENDC_TPL_UINT_DECL(LoopInnerARCount, 8, ASCENDC_TPL_UI_RANGE, 1, 0, 255)
#define REDUCE_TPL_PARAM uint32_t PatternID, uint32_t LoopARCount, uint32_t LoopInnerARCount
#define REDUCE_TPL_VALUE PatternID, LoopARCount, LoopInnerARCount
