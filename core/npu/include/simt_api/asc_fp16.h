// Half-precision conversions of the SIMT API (`half` is the simulator's IEEE binary16 type).
// `_rn` rounds to nearest even (as every conversion here does); `_sat` clamps to ±65504 instead
// of overflowing to infinity (NaN stays NaN).
#pragma once

#include "simt_api/simt_builtins.h"

__aicore__ inline float __half2float(half h) { return float(h); }
__aicore__ inline half __float2half(float f) { return half(f); }
__aicore__ inline half __float2half_rn(float f) { return half(f); }
__aicore__ inline half __float2half_rn_sat(float f) { return ::sage::simt::saturatingNarrow<half>(f, 65504.0f); }
__aicore__ inline half __int2half_rn(int32_t i) { return half(float(i)); }
__aicore__ inline int32_t __half2int_rz(half h) { return int32_t(float(h)); }

// Two halves side by side (4-byte aligned), computed lane-wise.
struct alignas(4) half2 {
    half x, y;
};
__aicore__ inline half2 operator+(half2 a, half2 b) { return {a.x + b.x, a.y + b.y}; }
__aicore__ inline half2 operator-(half2 a, half2 b) { return {a.x - b.x, a.y - b.y}; }
__aicore__ inline half2 operator*(half2 a, half2 b) { return {a.x * b.x, a.y * b.y}; }
__aicore__ inline half2 operator/(half2 a, half2 b) { return {a.x / b.x, a.y / b.y}; }
__aicore__ inline half2 __halves2half2(half lo, half hi) { return {lo, hi}; }
__aicore__ inline half2 __floats2half2_rn(float lo, float hi) { return {half(lo), half(hi)}; }
__aicore__ inline half __low2half(half2 h) { return h.x; }
__aicore__ inline half __high2half(half2 h) { return h.y; }
