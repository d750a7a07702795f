// Test fixture written for SAGE: the kernel of ScalePair, z = x * factor.
#include "kernel_operator.h"
#include "scale_pair_tiling_data.h"
using namespace AscendC;

// The configuration's data types by name, comparable in #if and in constant expressions, as
// ops-nn's kernels choose their paths (a type name there would make every #if branch look taken).
#if ORIG_DTYPE_X == DT_FLOAT16 || ORIG_DTYPE_X == DT_BF16
#error "ORIG_DTYPE_X must name the configuration's data type (float32 here)"
#endif
static_assert(ORIG_DTYPE_Z == DT_FLOAT && ORIG_DTYPE_Z != DT_INT4, "ORIG_DTYPE_Z names float32");
static_assert(!IsSameType<DTYPE_X, int4b_t>::value, "int4b_t is a type of its own");

// The entry's linkage through a macro, `static` in a CPU-debug build (ops-nn's dynamic_quant).
#ifdef __CCE_KT_TEST__
#define SCALE_PAIR_LINKAGE static
#else
#define SCALE_PAIR_LINKAGE extern "C"
#endif

SCALE_PAIR_LINKAGE __global__ __aicore__ void scale_pair(GM_ADDR x, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(ScalePairTilingData, t, tiling);
    const uint32_t start = GetBlockIdx() * t.perBlock;
    if (start >= t.total) return;
    const uint32_t count = t.total - start < t.perBlock ? t.total - start : t.perBlock;
    GlobalTensor<float> xg, zg;
    xg.SetGlobalBuffer((__gm__ float*)x + start, count);
    zg.SetGlobalBuffer((__gm__ float*)z + start, count);
    for (uint32_t i = 0; i < count; ++i) zg.SetValue(i, xg.GetValue(i) * t.factor);
}
