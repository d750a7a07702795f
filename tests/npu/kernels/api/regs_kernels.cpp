// Kernels for test_npu_api_regs: reductions in the mask + repeat form, RepeatReduceSum, the
// reduction registers (GetAccVal, GetReduceMaxMinCount) and Brcb. Written for the test.
#include "kernel_operator.h"

#include <cstring>

using namespace AscendC;

// Loads n floats into a TBuf-backed tensor, runs `body`, stores `outN` floats of the output tensor.
template <typename Body>
__aicore__ inline void onUb(GM_ADDR in, GM_ADDR out, uint32_t n, uint32_t outN, Body body) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bi, bo, bt;
    pipe.InitBuffer(bi, n * sizeof(float));
    pipe.InitBuffer(bo, outN * sizeof(float));
    pipe.InitBuffer(bt, 1024);
    GlobalTensor<float> ig, og;
    ig.SetGlobalBuffer((__gm__ float*)in, n);
    og.SetGlobalBuffer((__gm__ float*)out, outN);
    LocalTensor<float> li = bi.Get<float>(), lo = bo.Get<float>(), lt = bt.Get<float>();
    DataCopy(li, ig, n);
    DataCopy(lo, og, outN);
    SetFlag<HardEvent::MTE2_V>(0);
    WaitFlag<HardEvent::MTE2_V>(0);
    body(li, lo, lt);
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopy(og, lo, outN);
}

// out[0] = ReduceSum's dst, out[1] = GetAccVal<float>(), out[2] = the untemplated raw register.
extern "C" __global__ __aicore__ void acc_val_kernel(GM_ADDR in, GM_ADDR out)
{
    onUb(in, out, 200, 8, [](LocalTensor<float>& li, LocalTensor<float>& lo, LocalTensor<float>& lt) {
        ReduceSum(lo, li, lt, 200);
        SetFlag<HardEvent::V_S>(0);
        WaitFlag<HardEvent::V_S>(0);
        float typed = GetAccVal<float>();
        uint64_t raw = GetAccVal();
        float fromRaw;
        std::memcpy(&fromRaw, &raw, sizeof(float));
        SetFlag<HardEvent::V_S>(1);
        WaitFlag<HardEvent::V_S>(1);
        lo.SetValue(1, typed);
        lo.SetValue(2, fromRaw);
        SetFlag<HardEvent::S_V>(0);
        WaitFlag<HardEvent::S_V>(0);
    });
}

// out[r] = sum of the first 40 elements of repeat r (3 repeats of 64 floats, dstRepStride 1).
extern "C" __global__ __aicore__ void repeat_reduce_sum_kernel(GM_ADDR in, GM_ADDR out)
{
    onUb(in, out, 192, 8, [](LocalTensor<float>& li, LocalTensor<float>& lo, LocalTensor<float>&) {
        RepeatReduceSum<float>(lo, li, 3, 40, 0, 1, 1, 8);
    });
}

// ReduceMax in the mask + repeat form over 3 repeats with a bit mask (even elements only):
// out[0] = max, out[1] = its index bits; then GetReduceMaxMinCount into out[2], out[3];
// then WholeReduceMin over one repeat and GetReduceMaxMinCount into out[4], out[5].
extern "C" __global__ __aicore__ void reduce_repeat_kernel(GM_ADDR in, GM_ADDR out)
{
    onUb(in, out, 192, 8, [](LocalTensor<float>& li, LocalTensor<float>& lo, LocalTensor<float>& lt) {
        uint64_t even[2] = {0x5555'5555'5555'5555ull, 0};
        ReduceMax(lo, li, lt, even, 3, 8, true);
        SetFlag<HardEvent::V_S>(0);
        WaitFlag<HardEvent::V_S>(0);
        float v = 0, i = 0;
        GetReduceMaxMinCount<float>(v, i);
        lo.SetValue(2, v);
        lo.SetValue(3, i);
        SetFlag<HardEvent::S_V>(0);
        WaitFlag<HardEvent::S_V>(0);
        WholeReduceMin(lt, li[64], 64, 1, 1, 1, 8);
        SetFlag<HardEvent::V_S>(1);
        WaitFlag<HardEvent::V_S>(1);
        GetReduceMaxMinCount<float>(v, i);
        lo.SetValue(4, v);
        lo.SetValue(5, i);
        SetFlag<HardEvent::S_V>(1);
        WaitFlag<HardEvent::S_V>(1);
    });
}

// ReduceSum in the continuous-mask repeat form: the first 48 elements of each of 2 repeats.
extern "C" __global__ __aicore__ void reduce_sum_repeat_kernel(GM_ADDR in, GM_ADDR out)
{
    onUb(in, out, 128, 8, [](LocalTensor<float>& li, LocalTensor<float>& lo, LocalTensor<float>& lt) {
        ReduceSum(lo, li, lt, 48, 2, 8);
    });
}

// Brcb: 16 source floats, 2 repeats; dst block j of repeat r (8 floats) = src[r * 8 + j].
extern "C" __global__ __aicore__ void brcb_kernel(GM_ADDR in, GM_ADDR out)
{
    onUb(in, out, 16, 128, [](LocalTensor<float>& li, LocalTensor<float>& lo, LocalTensor<float>&) {
        Brcb(lo, li, 2, {1, 8});
    });
}

// Brcb with a block stride of 2 and repeat stride 16: every other block is written.
extern "C" __global__ __aicore__ void brcb_strided_kernel(GM_ADDR in, GM_ADDR out)
{
    onUb(in, out, 16, 256, [](LocalTensor<float>& li, LocalTensor<float>& lo, LocalTensor<float>&) {
        Brcb(lo, li, 2, BrcbRepeatParams(2, 16));
    });
}

// Bad input: source and destination at the same address.
extern "C" __global__ __aicore__ void brcb_in_place_kernel(GM_ADDR in, GM_ADDR out)
{
    onUb(in, out, 64, 64, [](LocalTensor<float>& li, LocalTensor<float>&, LocalTensor<float>&) {
        Brcb(li, li, 1, {1, 8});
    });
}

// Bad input: a repeat count beyond the 8-bit field.
extern "C" __global__ __aicore__ void brcb_too_many_repeats_kernel(GM_ADDR in, GM_ADDR out, int32_t repeats)
{
    onUb(in, out, 64, 64, [repeats](LocalTensor<float>& li, LocalTensor<float>& lo, LocalTensor<float>&) {
        Brcb(lo, li, repeats, {1, 8});
    });
}

// Bad input: ReduceMax's repeat form with 256 repeats.
extern "C" __global__ __aicore__ void reduce_too_many_repeats_kernel(GM_ADDR in, GM_ADDR out)
{
    onUb(in, out, 64, 64, [](LocalTensor<float>& li, LocalTensor<float>& lo, LocalTensor<float>& lt) {
        ReduceMax(lo, li, lt, 64, 256, 0);
    });
}

// Reading the accumulator before any ReduceSum ran: a warning, the value 0.
extern "C" __global__ __aicore__ void acc_unset_kernel(GM_ADDR in, GM_ADDR out)
{
    onUb(in, out, 8, 8, [](LocalTensor<float>&, LocalTensor<float>& lo, LocalTensor<float>&) {
        lo.SetValue(0, GetAccVal<float>() + 1.0f);
        SetFlag<HardEvent::S_V>(0);
        WaitFlag<HardEvent::S_V>(0);
    });
}
