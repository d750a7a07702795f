// bfloat16 conversions of the SIMT API (`bfloat16_t`: the top 16 bits of a float, rounded to
// nearest even). `_sat` clamps to bfloat16's largest finite value instead of overflowing.
#pragma once

#include "simt_api/simt_builtins.h"

__aicore__ inline float __bfloat162float(bfloat16_t b) { return float(b); }
__aicore__ inline bfloat16_t __float2bfloat16(float f) { return bfloat16_t(f); }
__aicore__ inline bfloat16_t __float2bfloat16_rn(float f) { return bfloat16_t(f); }
__aicore__ inline bfloat16_t __float2bfloat16_rn_sat(float f) {
    return ::sage::simt::saturatingNarrow<bfloat16_t>(f, 3.38953139e38f);  // bfloat16's largest finite value
}
