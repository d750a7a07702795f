// Kernels for test_npu_api_mask_forms: the mask + repeat forms of Compare, CompareScalar, Select
// and Cast, and the raw-address spellings (vcadd, get_max_min_cnt, TransDataTo5HDImpl).
// Written for the test.
#include "kernel_operator.h"

#include <cstring>

using namespace AscendC;

// Two float inputs of n elements each in UB (a, b), an output region of outBytes.
template <typename Body>
__aicore__ inline void onUb2(GM_ADDR in, GM_ADDR out, uint32_t n, uint32_t outBytes, Body body) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> ba, bb, bo;
    pipe.InitBuffer(ba, n * sizeof(float));
    pipe.InitBuffer(bb, n * sizeof(float));
    pipe.InitBuffer(bo, outBytes);
    GlobalTensor<float> ig;
    GlobalTensor<uint8_t> og;
    ig.SetGlobalBuffer((__gm__ float*)in, 2 * n);
    og.SetGlobalBuffer((__gm__ uint8_t*)out, outBytes);
    LocalTensor<float> a = ba.Get<float>(), b = bb.Get<float>();
    LocalTensor<uint8_t> o = bo.Get<uint8_t>();
    DataCopy(a, ig, n);
    DataCopy(b, ig[n], n);
    DataCopy(o, og, outBytes);
    SetFlag<HardEvent::MTE2_V>(0);
    WaitFlag<HardEvent::MTE2_V>(0);
    body(a, b, o);
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopy(og, o, outBytes);
}

// Compare a < b over 2 repeats with a bit mask (low 32 elements of each repeat): 16 mask bytes.
extern "C" __global__ __aicore__ void compare_repeat_kernel(GM_ADDR in, GM_ADDR out)
{
    onUb2(in, out, 128, 32, [](LocalTensor<float>& a, LocalTensor<float>& b, LocalTensor<uint8_t>& o) {
        uint64_t mask[2] = {0xffff'ffffull, 0};
        BinaryRepeatParams p;
        Compare(o, a, b, CMPMODE::LT, mask, 2, p);
    });
}

// CompareScalar a >= 0.5 over one repeat with a continuous mask of 40 elements.
extern "C" __global__ __aicore__ void compare_scalar_repeat_kernel(GM_ADDR in, GM_ADDR out)
{
    onUb2(in, out, 64, 32, [](LocalTensor<float>& a, LocalTensor<float>&, LocalTensor<uint8_t>& o) {
        UnaryRepeatParams p;
        CompareScalar(o, a, 0.5f, CMPMODE::GE, 40, 1, p);
    });
}

// Select by the bits a < b gives: tensor-tensor mode, then tensor-scalar mode (scalar -1).
// out floats [0, 128) = select(a, b); [128, 256) = select(a, -1).
extern "C" __global__ __aicore__ void select_repeat_kernel(GM_ADDR in, GM_ADDR out)
{
    onUb2(in, out, 128, 1024 + 32, [](LocalTensor<float>& a, LocalTensor<float>& b, LocalTensor<uint8_t>& o) {
        LocalTensor<uint8_t> bits = o[1024];
        BinaryRepeatParams p;
        Compare(bits, a, b, CMPMODE::LT, 64, 2, p);
        LocalTensor<float> r = o.ReinterpretCast<float>();
        Select(r, bits, a, b, SELMODE::VSEL_TENSOR_TENSOR_MODE, 64, 2, p);
        Select(r[128], bits, a, -1.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, 64, 2, p);
    });
}

// Cast float -> half with a continuous mask of 64 over 2 repeats; dst repeats 4 blocks apart.
extern "C" __global__ __aicore__ void cast_repeat_kernel(GM_ADDR in, GM_ADDR out)
{
    onUb2(in, out, 128, 256, [](LocalTensor<float>& a, LocalTensor<float>&, LocalTensor<uint8_t>& o) {
        UnaryRepeatParams p(1, 1, 4, 8);
        Cast(o.ReinterpretCast<half>(), a, RoundMode::CAST_NONE, 64, 2, p);
    });
}

// Bad input: Compare with 256 repeats.
extern "C" __global__ __aicore__ void compare_too_many_repeats_kernel(GM_ADDR in, GM_ADDR out)
{
    onUb2(in, out, 64, 32, [](LocalTensor<float>& a, LocalTensor<float>& b, LocalTensor<uint8_t>& o) {
        BinaryRepeatParams p(1, 1, 1, 0, 0, 0);
        Compare(o, a, b, CMPMODE::LT, 64, 256, p);
    });
}

// Bad input: Select's source at an address that is not 32-byte aligned.
extern "C" __global__ __aicore__ void select_misaligned_kernel(GM_ADDR in, GM_ADDR out)
{
    onUb2(in, out, 128, 1024 + 32, [](LocalTensor<float>& a, LocalTensor<float>& b, LocalTensor<uint8_t>& o) {
        BinaryRepeatParams p;
        Select(o.ReinterpretCast<float>(), o[1024], a[3], b, SELMODE::VSEL_TENSOR_TENSOR_MODE, 64, 1, p);
    });
}

// vcadd on raw UB addresses with the mask register (first 16 of each repeat), 2 repeats; then
// WholeReduceMax and get_max_min_cnt. out floats: [0..2) sums, [2] max value, [3] index bits.
extern "C" __global__ __aicore__ void raw_address_reduce_kernel(GM_ADDR in, GM_ADDR out)
{
    onUb2(in, out, 128, 64, [](LocalTensor<float>& a, LocalTensor<float>&, LocalTensor<uint8_t>& o) {
        LocalTensor<float> r = o.ReinterpretCast<float>();
        SetVectorMask<float>(0, 0xffffull);
        vcadd((__ubuf__ float*)r.GetPhyAddr(), (__ubuf__ float*)a.GetPhyAddr(), 2, 1, 1, 8, false);
        ResetMask();
        WholeReduceMax(r[8], a, 64, 1, 1, 1, 8);
        SetFlag<HardEvent::V_S>(0);
        WaitFlag<HardEvent::V_S>(0);
        uint64_t reg = get_max_min_cnt();
        float v;
        uint32_t valueBits = uint32_t(reg), index = uint32_t(reg >> 32);
        std::memcpy(&v, &valueBits, 4);
        r.SetValue(2, v);
        r.ReinterpretCast<uint32_t>().SetValue(3, index);
        SetFlag<HardEvent::S_MTE3>(0);
        WaitFlag<HardEvent::S_MTE3>(0);
    });
}

// TransDataTo5HDImpl with raw addresses: a 16 x 16 half matrix transposed (one repeat).
extern "C" __global__ __aicore__ void transdata_impl_kernel(GM_ADDR in, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> bs, bd;
    pipe.InitBuffer(bs, 512);
    pipe.InitBuffer(bd, 512);
    GlobalTensor<half> ig, og;
    ig.SetGlobalBuffer((__gm__ half*)in, 256);
    og.SetGlobalBuffer((__gm__ half*)out, 256);
    LocalTensor<half> s = bs.Get<half>(), d = bd.Get<half>();
    DataCopy(s, ig, 256);
    SetFlag<HardEvent::MTE2_V>(0);
    WaitFlag<HardEvent::MTE2_V>(0);
    __ubuf__ half* sa = (__ubuf__ half*)s.GetPhyAddr();
    __ubuf__ half* da = (__ubuf__ half*)d.GetPhyAddr();
    __ubuf__ half* srcList[16];
    __ubuf__ half* dstList[16];
    for (int i = 0; i < 16; ++i) {
        srcList[i] = sa + 16 * i;
        dstList[i] = da + 16 * i;
    }
    TransDataTo5HDParams p;
    p.repeatTimes = 1;
    TransDataTo5HDImpl(dstList, srcList, p);
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopy(og, d, 256);
}

// Trap() stops the kernel at its line.
extern "C" __global__ __aicore__ void trap_kernel(GM_ADDR, GM_ADDR)
{
    Trap();
}

// gm(i) element access, PopStackBuffer, the `x = y ASSERT(c)` spelling, Adds<T, false> with the
// mask register, TQueConfig and the untyped DeQue. out[0] = gm(1) read, out[1] written through
// gm(1) = 7, out[2] = stack bytes > 0, out[3] = free UB bytes, out[4..68) = in + 1 (first 32
// through Adds<float, false> with the mask register set to 32 lanes, rest Adds normally).
constexpr TPosition kCfgPositions[8] = {TPosition::MAX, TPosition::MAX, TPosition::MAX, TPosition::MAX,
                                       TPosition::MAX, TPosition::MAX, TPosition::MAX, TPosition::MAX};
constexpr TQueConfig kQueCfg = {false, false, false, 0, 1, 0,
                                {kCfgPositions[0], kCfgPositions[1], kCfgPositions[2], kCfgPositions[3],
                                 kCfgPositions[4], kCfgPositions[5], kCfgPositions[6], kCfgPositions[7]}};
extern "C" __global__ __aicore__ void misc_spellings_kernel(GM_ADDR in, GM_ADDR out, uint32_t n)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1, &kQueCfg> q;
    TBuf<TPosition::LCM> tb;
    uint32_t count = 0;
    count = n ASSERT(n != 0 && "n must not be zero");
    pipe.InitBuffer(q, 1, 256);
    pipe.InitBuffer(tb, 256);
    GlobalTensor<float> ig, og;
    ig.SetGlobalBuffer((__gm__ float*)in, 64);
    og.SetGlobalBuffer((__gm__ float*)out, 72);
    const float first = ig(1);
    og(1) = 7.0f;
    LocalTensor<int16_t> stack;
    const bool got = PopStackBuffer<int16_t, TPosition::LCM>(stack);
    LocalTensor<float> x = q.AllocTensor<float>();
    DataCopy(x, ig, 64);
    q.EnQue(x);
    q.DeQue();  // the untyped form: synchronises, the tensor stays x
    LocalTensor<float> y = tb.Get<float>();
    SetVectorMask<float>(0, 0xffff'ffffull);
    Adds<float, false>(y, x, 1.0f, MASK_PLACEHOLDER, 1, {1, 1, 8, 8});
    ResetMask();
    Adds(y[32], x[32], 1.0f, 32);
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopy(og[8], y, 64);
    og(0) = first;
    og(2) = got ? 1.0f : 0.0f;
    og(3) = float(stack.GetSize() * sizeof(int16_t));
    og(4) = float(count);
}

// The *Impl spellings on raw addresses: DataCopyPadGm2UBImpl reads 5 floats (unaligned length),
// DuplicateImpl fills 8 more with 2.5 after them, DataCopyUB2GMImpl writes the 2 blocks out.
extern "C" __global__ __aicore__ void impl_spellings_kernel(GM_ADDR in, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 64);
    LocalTensor<float> t = b.Get<float>();
    __ubuf__ float* ub = (__ubuf__ float*)t.GetPhyAddr();
    DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
    DataCopyPadGm2UBImpl(ub, (__gm__ float*)in, DataCopyExtParams{1, 5 * sizeof(float), 0, 0, 0}, pad);
    SetFlag<HardEvent::MTE2_V>(0);
    WaitFlag<HardEvent::MTE2_V>(0);
    DuplicateImpl<float>(ub + 8, 2.5f, 8);
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopyUB2GMImpl((__gm__ float*)out, ub, {1, 2, 0, 0});
    // A 4-value brace list is a DataCopyParams (blockLen in bytes for DataCopyPad): 5 floats.
    GlobalTensor<float> og;
    og.SetGlobalBuffer((__gm__ float*)out + 16, 5);
    DataCopyPad(og, t, {1, uint16_t(5 * sizeof(float)), 0, 0});
}

// The comparison operators: bits = a >= b over all 64 elements of a.
extern "C" __global__ __aicore__ void compare_operator_kernel(GM_ADDR in, GM_ADDR out)
{
    onUb2(in, out, 64, 32, [](LocalTensor<float>& a, LocalTensor<float>& b, LocalTensor<uint8_t>& o) {
        o = a >= b;
    });
}

// ScalarCast float -> int32_t with CAST_ROUND and CAST_FLOOR, float -> half with CAST_ODD.
extern "C" __global__ __aicore__ void scalar_cast_kernel(GM_ADDR out)
{
    GlobalTensor<int32_t> og;
    og.SetGlobalBuffer((__gm__ int32_t*)out, 4);
    og.SetValue(0, ScalarCast<float, int32_t, RoundMode::CAST_ROUND>(2.5f));
    og.SetValue(1, ScalarCast<float, int32_t, RoundMode::CAST_ROUND>(-2.5f));
    og.SetValue(2, ScalarCast<float, int32_t, RoundMode::CAST_FLOOR>(-2.5f));
    half h = ScalarCast<float, half, RoundMode::CAST_ODD>(1.0f + 1.0f / 4096.0f);  // between two halfs
    og.SetValue(3, int32_t(h.bits));
}
