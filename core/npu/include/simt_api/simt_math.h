// Math for SIMT code: the C math functions (float and double overloads, `isnan`, `isinf`, ...)
// and the integer intrinsics, as the SIMT API provides them to every thread, plus the
// `AscendC::Simt` spellings. They compute on the host in IEEE arithmetic (float in float); each
// call of an intrinsic below counts as one operation of the thread's cost.
#pragma once

#include "simt_api/simt_builtins.h"

#include <cstdint>
#include <math.h>  // the C++ wrapper: std's float overloads of sqrt, exp, ... also in the global namespace

// Float constants of the SIMT math library.
#define ASCRT_PI_F 3.14159265358979323846f
#define ASCRT_INF_F __builtin_inff()

// Bit counts and positions (CUDA's integer intrinsics).
__aicore__ inline int32_t __popc(uint32_t x) { return __builtin_popcount(x); }
__aicore__ inline int32_t __popcll(uint64_t x) { return __builtin_popcountll(x); }
__aicore__ inline int32_t __clz(int32_t x) { return x == 0 ? 32 : __builtin_clz(uint32_t(x)); }
__aicore__ inline int32_t __clzll(int64_t x) { return x == 0 ? 64 : __builtin_clzll(uint64_t(x)); }
__aicore__ inline int32_t __ffs(int32_t x) { return __builtin_ffs(x); }
__aicore__ inline int32_t __ffsll(int64_t x) { return __builtin_ffsll(x); }
__aicore__ inline uint32_t __brev(uint32_t x) {
    uint32_t r = 0;
    for (int i = 0; i < 32; ++i) r |= ((x >> i) & 1u) << (31 - i);
    return r;
}

namespace AscendC::Simt {
template <typename T> __aicore__ inline T Sin(T x) { return T(::sinf(float(x))); }
template <typename T> __aicore__ inline T Cos(T x) { return T(::cosf(float(x))); }
template <typename T> __aicore__ inline T Tan(T x) { return T(::tanf(float(x))); }
template <typename T> __aicore__ inline T Exp(T x) { return T(::expf(float(x))); }
template <typename T> __aicore__ inline T Log(T x) { return T(::logf(float(x))); }
template <typename T> __aicore__ inline T Sqrt(T x) { return T(::sqrtf(float(x))); }
template <typename T> __aicore__ inline T Abs(T x) { return x < T(0) ? T(-x) : x; }
template <typename T> __aicore__ inline T Tanh(T x) { return T(::tanhf(float(x))); }
template <> __aicore__ inline double Sin(double x) { return ::sin(x); }
template <> __aicore__ inline double Cos(double x) { return ::cos(x); }
template <> __aicore__ inline double Exp(double x) { return ::exp(x); }
template <> __aicore__ inline double Log(double x) { return ::log(x); }
template <> __aicore__ inline double Sqrt(double x) { return ::sqrt(x); }
} // namespace AscendC::Simt
