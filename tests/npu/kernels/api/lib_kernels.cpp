// Kernels for test_npu_api_lib: the vector library APIs and small helpers real op kernels use
// (GatherMask, Copy, index fills, BroadCast, Sum/Mean, GM fills, SetDeqScale, mask modes,
// TQueSync). Written for the test.
#include "kernel_operator.h"

using namespace AscendC;

static_assert(DivCeil(65u, 32u) == 3u && DivCeil(64, 32) == 2 && GetDataBlockSizeInBytes() == 32);

// Loads n floats into a TBuf-backed tensor, runs `body`, stores `outN` floats.
template <typename Body>
__aicore__ inline void runOnUb(GM_ADDR in, GM_ADDR out, uint32_t n, uint32_t outN, Body body) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bi, bo;
    pipe.InitBuffer(bi, n * sizeof(float));
    pipe.InitBuffer(bo, outN * sizeof(float));
    GlobalTensor<float> ig, og;
    ig.SetGlobalBuffer((__gm__ float*)in, n);
    og.SetGlobalBuffer((__gm__ float*)out, outN);
    LocalTensor<float> li = bi.Get<float>(), lo = bo.Get<float>();
    DataCopy(li, ig, n);
    DataCopy(lo, og, outN);
    TQueSync<PIPE_MTE2, PIPE_V> toVector;
    toVector.SetFlag(0);
    toVector.WaitFlag(0);
    body(li, lo);
    TQueSync<PIPE_V, PIPE_MTE3> toOut;
    toOut.SetFlag(0);
    toOut.WaitFlag(0);
    DataCopy(og, lo, outN);
}

// out[0..32) = even elements of in[0..64) (built-in pattern 1); count into cnt[0].
extern "C" __global__ __aicore__ void gathermask_builtin_kernel(GM_ADDR in, GM_ADDR out, GM_ADDR cnt)
{
    uint64_t n = 0;
    runOnUb(in, out, 64, 64, [&](LocalTensor<float>& li, LocalTensor<float>& lo) {
        GatherMask(lo, li, 1, false, 0, {1, 1, 8, 0}, n);
    });
    GlobalTensor<uint32_t> cg;
    cg.SetGlobalBuffer((__gm__ uint32_t*)cnt, 1);
    cg.SetValue(0, uint32_t(n));
}

// Counter mode with a bit tensor: the elements among the first `count` whose bit is set.
extern "C" __global__ __aicore__ void gathermask_tensor_kernel(GM_ADDR in, GM_ADDR bits, GM_ADDR out, GM_ADDR cnt,
                                                               uint32_t count)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> bb;
    pipe.InitBuffer(bb, 32);
    GlobalTensor<uint32_t> bg;
    bg.SetGlobalBuffer((__gm__ uint32_t*)bits, 8);
    LocalTensor<uint32_t> lb = bb.Get<uint32_t>();
    DataCopy(lb, bg, 8);
    uint64_t n = 0;
    runOnUb(in, out, 64, 64, [&](LocalTensor<float>& li, LocalTensor<float>& lo) {
        GatherMask(lo, li, lb, true, count, {1, 1, 8, 0}, n);
    });
    GlobalTensor<uint32_t> cg;
    cg.SetGlobalBuffer((__gm__ uint32_t*)cnt, 1);
    cg.SetValue(0, uint32_t(n));
}

// Copy with a mask of 32 over two repeats of 64 floats: elements 0..31 and 64..95 only.
extern "C" __global__ __aicore__ void copy_kernel(GM_ADDR in, GM_ADDR out)
{
    runOnUb(in, out, 128, 128, [](LocalTensor<float>& li, LocalTensor<float>& lo) {
        Copy(lo, li, 32, 2, {1, 1, 8, 8});
    });
}

// out = [5, 5.5, 6, ...] (ArithProgression) then out[64..) = 3, 4, ... (CreateVecIndex, int32 bits).
extern "C" __global__ __aicore__ void index_kernel(GM_ADDR in, GM_ADDR out)
{
    runOnUb(in, out, 64, 128, [](LocalTensor<float>& li, LocalTensor<float>& lo) {
        ArithProgression(lo, 5.0f, 0.5f, 64);
        LocalTensor<int32_t> idx = lo[64].ReinterpretCast<int32_t>();
        CreateVecIndex(idx, 3, 64);
    });
}

// in = 8 values. out[0..64) = rows 0..7 each filled with in[r] (axis 1, [8,1] -> [8,8]);
// out[64..128) = the row in[0..8) repeated 8 times (axis 0, [1,8] -> [8,8]).
extern "C" __global__ __aicore__ void broadcast_kernel(GM_ADDR in, GM_ADDR out)
{
    runOnUb(in, out, 8, 128, [](LocalTensor<float>& li, LocalTensor<float>& lo) {
        const uint32_t dst[2] = {8, 8}, colSrc[2] = {8, 1}, rowSrc[2] = {1, 8};
        BroadCast<float, 2, 1>(lo, li, dst, colSrc);
        LocalTensor<float> second = lo[64];
        BroadCast<float, 2, 0>(second, li, dst, rowSrc);
    });
}

// 4 rows of 16 (12 valid): out[0..4) = row sums, out[8..12) = row means.
extern "C" __global__ __aicore__ void sum_mean_kernel(GM_ADDR in, GM_ADDR out)
{
    runOnUb(in, out, 64, 16, [](LocalTensor<float>& li, LocalTensor<float>& lo) {
        Sum(lo, li, SumParams{4, 16, 12});
        LocalTensor<float> means = lo[8];
        Mean(means, li, MeanParams{4, 16, 12});
    });
}

// Counter mode through AscendCUtils: Adds on the first `count` elements only.
extern "C" __global__ __aicore__ void counter_mask_kernel(GM_ADDR in, GM_ADDR out, uint32_t count)
{
    runOnUb(in, out, 256, 256, [&](LocalTensor<float>& li, LocalTensor<float>& lo) {
        Copy(lo, li, 64, 4, {1, 1, 8, 8});
        AscendCUtils::SetMaskCount<float>();
        AscendCUtils::SetMask<float>(int32_t(count));
        Adds<float, float, false>(lo, li, 1.0f, MASK_PLACEHOLDER, 1, {1, 1, 8, 8});
        AscendCUtils::SetMaskNorm<float>();
        ResetMask();
    });
}

// y[0..n) = value (InitGlobalMemory), z[0..n) = 0 (InitOutput), bf16 round trip in w[0].
extern "C" __global__ __aicore__ void init_gm_kernel(GM_ADDR y, GM_ADDR z, GM_ADDR w, uint32_t n, float value)
{
    GlobalTensor<float> yg, wg;
    GlobalTensor<int32_t> zg;
    yg.SetGlobalBuffer((__gm__ float*)y, n);
    zg.SetGlobalBuffer((__gm__ int32_t*)z, n);
    wg.SetGlobalBuffer((__gm__ float*)w, 1);
    InitGlobalMemory(yg, n, value);
    InitOutput<int32_t>(zg, n);
    DataCacheCleanAndInvalid<float, CacheLine::ENTIRE_DATA_CACHE>(yg);
    wg.SetValue(0, ToFloat(ToBfloat16(value)));
}

// half out = int32 in * scale (SetDeqScale, then Cast int32 -> half).
extern "C" __global__ __aicore__ void deq_kernel(GM_ADDR in, GM_ADDR out, float scale)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> bi, bo;
    pipe.InitBuffer(bi, 64 * sizeof(int32_t));
    pipe.InitBuffer(bo, 64 * sizeof(half));
    GlobalTensor<int32_t> ig;
    GlobalTensor<half> og;
    ig.SetGlobalBuffer((__gm__ int32_t*)in, 64);
    og.SetGlobalBuffer((__gm__ half*)out, 64);
    LocalTensor<int32_t> li = bi.Get<int32_t>();
    LocalTensor<half> lo = bo.Get<half>();
    DataCopy(li, ig, 64);
    PipeBarrier<PIPE_ALL>();
    SetDeqScale(half(scale));
    Cast(lo, li, RoundMode::CAST_NONE, 64);
    PipeBarrier<PIPE_ALL>();
    DataCopy(og, lo, 64);
}

// A 16 x 16 half matrix (rows = blocks) transposed by TransDataTo5HD (list form), and a 16 x 8
// float matrix transposed into 8 rows of 16 (address form).
extern "C" __global__ __aicore__ void trans5hd_kernel(GM_ADDR inH, GM_ADDR outH, GM_ADDR inF, GM_ADDR outF)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> a, b, c, d;
    pipe.InitBuffer(a, 512);
    pipe.InitBuffer(b, 512);
    pipe.InitBuffer(c, 512);
    pipe.InitBuffer(d, 512);
    GlobalTensor<half> ih, oh;
    GlobalTensor<float> iff, of;
    ih.SetGlobalBuffer((__gm__ half*)inH, 256);
    oh.SetGlobalBuffer((__gm__ half*)outH, 256);
    iff.SetGlobalBuffer((__gm__ float*)inF, 128);
    of.SetGlobalBuffer((__gm__ float*)outF, 128);
    LocalTensor<half> la = a.Get<half>(), lb = b.Get<half>();
    LocalTensor<float> lc = c.Get<float>(), ld = d.Get<float>();
    DataCopy(la, ih, 256);
    DataCopy(lc, iff, 128);
    PipeBarrier<PIPE_ALL>();
    LocalTensor<half> dstList[16], srcList[16];
    uint64_t dstAddr[16], srcAddr[16];
    for (int i = 0; i < 16; ++i) {
        srcList[i] = la[16 * i];
        dstList[i] = lb[16 * i];
        srcAddr[i] = lc[8 * i].GetPhyAddr();
        dstAddr[i] = ld[8 * i].GetPhyAddr();
    }
    TransDataTo5HD<half>(dstList, srcList, TransDataTo5HDParams(false, false, 1, 0, 0));
    TransDataTo5HD<float>(dstAddr, srcAddr, TransDataTo5HDParams(false, false, 1, 0, 0));
    PipeBarrier<PIPE_ALL>();
    DataCopy(oh, lb, 256);
    DataCopy(of, ld, 128);
}

// PairReduceSum over two repeats of 64 floats with a mask of 40: 20 pair sums per repeat, the
// second repeat's results 128 bytes (32 floats) further on.
extern "C" __global__ __aicore__ void pair_sum_kernel(GM_ADDR in, GM_ADDR out)
{
    runOnUb(in, out, 128, 64, [](LocalTensor<float>& li, LocalTensor<float>& lo) {
        PairReduceSum(lo, li, 2, 40, 1, 1, 8);
    });
}

// APIs bound to function pointers, as foreach kernels pass them: out[0..64) = in / in2 (Div),
// out[64..128) = sin(in) (Sin).
template <void (*binary)(const LocalTensor<float>&, const LocalTensor<float>&, const LocalTensor<float>&,
                         const int32_t&),
          void (*unary)(const LocalTensor<float>&, const LocalTensor<float>&, uint32_t)>
__aicore__ inline void applyOps(LocalTensor<float>& li, LocalTensor<float>& lo) {
    binary(lo, li, li[64], 64);
    LocalTensor<float> second = lo[64];
    unary(second, li, 64);
}
extern "C" __global__ __aicore__ void pointer_ops_kernel(GM_ADDR in, GM_ADDR out)
{
    runOnUb(in, out, 128, 128, [](LocalTensor<float>& li, LocalTensor<float>& lo) {
        applyOps<Div<float>, Sin<float, false>>(li, lo);
    });
}
