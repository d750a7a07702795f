// Kernels for test_npu_api_cann: the facilities CANN's current op repositories and published
// agent kernels use (FasterGelu/FasterGeluV2, Sort32, TOTAL_VEC_LOCAL_SIZE, InitSocState,
// element compound assignment, AscendC::half). Written for the test.
#include "kernel_operator.h"

#include <type_traits>

using namespace AscendC;

static_assert(std::is_same_v<AscendC::half, ::half>, "AscendC::half is the kernel API's half");

// y = FasterGeluV2(x) for n floats (n a multiple of 8), through a shared temporary buffer.
extern "C" __global__ __aicore__ void faster_gelu_v2_kernel(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, tmp;
    pipe.InitBuffer(bx, n * sizeof(float));
    pipe.InitBuffer(by, n * sizeof(float));
    pipe.InitBuffer(tmp, 1024);
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float*)x, n);
    yg.SetGlobalBuffer((__gm__ float*)y, 2 * n);
    LocalTensor<float> lx = bx.Get<float>(), ly = by.Get<float>();
    DataCopy(lx, xg, n);
    PipeBarrier<PIPE_ALL>();
    FasterGeluV2<float, false, true>(ly, lx, tmp.Get<uint8_t>(), n);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, ly, n);
    PipeBarrier<PIPE_ALL>();
    FasterGelu(ly, lx, n);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg[n], ly, n);
}

// 64 scores in two groups of 32, indices 0..63: out gets the 64 (score, index) entries.
extern "C" __global__ __aicore__ void sort32_kernel(GM_ADDR scores, GM_ADDR out, int32_t repeat)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> bs, bi, bo;
    pipe.InitBuffer(bs, 64 * sizeof(float));
    pipe.InitBuffer(bi, 64 * sizeof(uint32_t));
    pipe.InitBuffer(bo, 64 * 8);
    GlobalTensor<float> sg, og;
    sg.SetGlobalBuffer((__gm__ float*)scores, 64);
    og.SetGlobalBuffer((__gm__ float*)out, 128);
    LocalTensor<float> ls = bs.Get<float>(), lo = bo.Get<float>();
    LocalTensor<uint32_t> li = bi.Get<uint32_t>();
    DataCopy(ls, sg, 64);
    ArithProgression(li.ReinterpretCast<int32_t>(), int32_t(0), int32_t(1), 64);
    PipeBarrier<PIPE_ALL>();
    Sort32(lo, ls, li, repeat);
    PipeBarrier<PIPE_ALL>();
    DataCopy(og, lo, 128);
}

// The same for half scores: entries keep the half bits in the low 2 bytes.
extern "C" __global__ __aicore__ void sort32_half_kernel(GM_ADDR scores, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> bs, bi, bo;
    pipe.InitBuffer(bs, 32 * sizeof(half));
    pipe.InitBuffer(bi, 32 * sizeof(uint32_t));
    pipe.InitBuffer(bo, 32 * 8);
    GlobalTensor<half> sg;
    GlobalTensor<uint32_t> og;
    sg.SetGlobalBuffer((__gm__ half*)scores, 32);
    og.SetGlobalBuffer((__gm__ uint32_t*)out, 64);
    LocalTensor<half> ls = bs.Get<half>(), lo = bo.Get<half>();
    LocalTensor<uint32_t> li = bi.Get<uint32_t>();
    DataCopy(ls, sg, 32);
    ArithProgression(li.ReinterpretCast<int32_t>(), int32_t(100), int32_t(1), 32);
    PipeBarrier<PIPE_ALL>();
    Sort32(lo, ls, li, 1);
    PipeBarrier<PIPE_ALL>();
    DataCopy(og, lo.ReinterpretCast<uint32_t>(), 64);
}

// The vector share of UB as a buffer size; out[0] = its value. t(i) += / -= / *= / /= on a
// LocalTensor and a GlobalTensor element.
extern "C" __global__ __aicore__ void vec_local_size_kernel(GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> all;
    pipe.InitBuffer(all, TOTAL_VEC_LOCAL_SIZE);
    LocalTensor<float> t = all.Get<float>();
    t(0) = 10.0f;
    t(0) += 5.0f;
    t(0) *= 2.0f;
    t(0) -= 6.0f;
    t(0) /= 4.0f;
    GlobalTensor<float> og;
    og.SetGlobalBuffer((__gm__ float*)out, 8);
    og(0) = float(TOTAL_VEC_LOCAL_SIZE);
    og(1) = t(0);
    og(2) = 1.0f;
    og(2) += 2.0f;
    og(2) *= 3.0f;
}

// Atomic add left on by the kernel is cleared by InitSocState: the second copy overwrites.
extern "C" __global__ __aicore__ void init_soc_state_kernel(GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 32);
    LocalTensor<float> t = b.Get<float>();
    Duplicate(t, 2.0f, 8);
    GlobalTensor<float> og;
    og.SetGlobalBuffer((__gm__ float*)out, 8);
    PipeBarrier<PIPE_ALL>();
    SetAtomicAdd<float>();
    DataCopy(og, t, 8);
    PipeBarrier<PIPE_ALL>();
    InitSocState();
    DataCopy(og, t, 8);
}

// ---- CANN op-repository headers ------------------------------------------------------------
#include "ascendc/host_api/tiling/template_argument.h"
#include "kernel_operator_list_tensor_intf.h"
#include "op_kernel/math_util.h"
#include "op_kernel/platform_util.h"

// A tiling-template declaration as an op's kernel header writes it.
#define DEMO_TPL_FP16 1
#define DEMO_TPL_FP32 2
ASCENDC_TPL_ARGS_DECL(DemoOp, ASCENDC_TPL_UINT_DECL(schMode, 2, ASCENDC_TPL_UI_LIST, 0, 1, 2),
                      ASCENDC_TPL_DTYPE_DECL(dType, DEMO_TPL_FP16, DEMO_TPL_FP32),
                      ASCENDC_TPL_BOOL_DECL(isTail, 0, 1));
ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_KERNEL_TYPE_SEL(ASCENDC_TPL_AIV_ONLY),
                                     ASCENDC_TPL_UINT_SEL(schMode, ASCENDC_TPL_UI_LIST, 0, 1),
                                     ASCENDC_TPL_DTYPE_SEL(dType, DEMO_TPL_FP32), ASCENDC_TPL_BOOL_SEL(isTail, 0)));

// out = list[0] + list[1] over n floats; meta[0] = list size, meta[1..2] = shape of tensor 1,
// meta[3] = its dimension count, meta[4] = its index; out[n..] = the Ops::Base helpers.
extern "C" __global__ __aicore__ void list_add_kernel(GM_ADDR list, GM_ADDR out, GM_ADDR meta, uint32_t n)
{
    ListTensorDesc desc((__gm__ void*)list);
    uint64_t shape[8] = {0};
    TensorDesc<float> second;
    second.SetShapeAddr(shape);
    desc.GetDesc(second, 1);
    GlobalTensor<float> a, b, o;
    a.SetGlobalBuffer(desc.GetDataPtr<float>(0), n);
    b = second.GetDataObj();
    o.SetGlobalBuffer((__gm__ float*)out, n + 8);
    TPipe pipe;
    TBuf<TPosition::VECCALC> ba, bb;
    const uint32_t bytes = Ops::Base::CeilAlign<uint32_t>(n * sizeof(float), Ops::Base::GetUbBlockSize());
    pipe.InitBuffer(ba, bytes);
    pipe.InitBuffer(bb, bytes);
    LocalTensor<float> la = ba.Get<float>(), lb = bb.Get<float>();
    DataCopy(la, a, n);
    DataCopy(lb, b, n);
    PipeBarrier<PIPE_ALL>();
    Add(la, la, lb, n);
    PipeBarrier<PIPE_ALL>();
    DataCopy(o, la, n);
    GlobalTensor<uint64_t> m;
    m.SetGlobalBuffer((__gm__ uint64_t*)meta, 8);
    m(0) = desc.GetSize();
    m(1) = second.GetShape(0);
    m(2) = second.GetShape(1);
    m(3) = second.GetDim();
    m(4) = second.GetIndex();
    m(5) = Ops::Base::CeilDiv<uint32_t>(n, 64);
    m(6) = Ops::Base::FloorAlign<uint32_t>(n, 64);
    m(7) = Ops::Base::GetVRegSize() + Ops::Base::CeilDiv<uint32_t>(n, 0);  // a zero divisor gives n back
}

// Reads tensor `index` of the list (past its end: the list's own error).
extern "C" __global__ __aicore__ void list_index_kernel(GM_ADDR list, uint32_t index)
{
    ListTensorDesc desc((__gm__ void*)list, 0xffffffff, 2);
    GlobalTensor<float> g;
    g.SetGlobalBuffer(desc.GetDataPtr<float>(index), 8);
}

// Static tensor programming: z = x + y with tensors from LocalMemAllocator, no TPipe;
// out[n] = the allocator's address after the four tensors. `n` elements each.
extern "C" __global__ __aicore__ void static_alloc_add_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t n)
{
    InitSocState();
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<float> lx = ub.Alloc<float>(n);
    LocalTensor<float> ly = ub.Alloc<TPosition::VECIN, float>(n);
    LocalTensor<float> pad = ub.Alloc<float, 8>();  // one 32-byte block between y and z
    LocalTensor<float> lz = ub.Alloc<float>(n);
    (void)pad;
    GlobalTensor<float> xg, yg, zg;
    xg.SetGlobalBuffer((__gm__ float*)x, n);
    yg.SetGlobalBuffer((__gm__ float*)y, n);
    zg.SetGlobalBuffer((__gm__ float*)z, n + 8);
    DataCopy(lx, xg, n);
    DataCopy(ly, yg, n);
    SetFlag<HardEvent::MTE2_V>(0);
    WaitFlag<HardEvent::MTE2_V>(0);
    Add(lz, lx, ly, n);
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopy(zg, lz, n);
    zg(n) = float(ub.GetCurAddr());
}

// A plain tiling struct registered as newer op kernels do; out = the fields read through the
// registered struct, its pointer form and the tiling key.
struct DemoTilingData {
    uint32_t total;
    float scale;
};
extern "C" __global__ __aicore__ void tiling_struct_kernel(GM_ADDR out, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(DemoTilingData);
    REGISTER_TILING_FOR_TILINGKEY("TILING_KEY_VAR == 1", DemoTilingData);
    GET_TILING_DATA_WITH_STRUCT(DemoTilingData, t, tiling);
    GET_TILING_DATA_PTR_WITH_STRUCT(DemoTilingData, p, tiling);
    GlobalTensor<float> o;
    o.SetGlobalBuffer((__gm__ float*)out, 8);
    o(0) = float(t.total);
    o(1) = p->scale;
    o(2) = float(TILING_KEY_VAR);
}

// AscendC::Std: min/max of mixed-width lengths and a type picked with conditional_t.
static_assert(AscendC::Std::is_same_v<AscendC::Std::remove_pointer_t<int*>, int>);
static_assert(AscendC::Std::is_void<void>::value && !AscendC::Std::is_void<void*>::value);
static_assert(AscendC::Std::is_floating_point<half>::value == false);
extern "C" __global__ __aicore__ void std_subset_kernel(GM_ADDR out, int32_t a, int32_t b) {
    AscendC::GlobalTensor<int32_t> og;
    og.SetGlobalBuffer((__gm__ int32_t*)out, 4);
    using Wide = AscendC::Std::conditional_t<(sizeof(int32_t) < 8), int64_t, int32_t>;
    og.SetValue(0, AscendC::Std::min(a, b));
    og.SetValue(1, AscendC::Std::max(a, b));
    og.SetValue(2, int32_t(sizeof(Wide)));
    og.SetValue(3, AscendC::Std::is_integral_v<Wide> ? 1 : 0);
}

// ASCENDC_ASSERT: the statements run (and the check fails) only when the condition is false.
extern "C" __global__ __aicore__ void ascendc_assert_kernel(GM_ADDR out, uint32_t n) {
    AscendC::GlobalTensor<int32_t> og;
    og.SetGlobalBuffer((__gm__ int32_t*)out, 2);
    ASCENDC_ASSERT(n != 0, {
        KERNEL_LOG(KERNEL_ERROR, "n must not be zero (got %u)", n);
        og.SetValue(0, 7);
    });
    og.SetValue(1, int32_t(n));
}

// SetPadValue: three DataCopyPad copies of 5 floats padded right by 3 into 8-float rows: isPad
// false before any SetPadValue (padding untouched: the row was filled with -1), isPad false
// after SetPadValue(7), isPad true with paddingValue 2. Row 3 (the 950 `__local_mem__`
// spelling) reads row 1's first element through a register load.
extern "C" __global__ __aicore__ void set_pad_value_kernel(GM_ADDR in, GM_ADDR out) {
    AscendC::GlobalTensor<float> ig, og;
    ig.SetGlobalBuffer((__gm__ float*)in, 8);
    og.SetGlobalBuffer((__gm__ float*)out, 32);
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
    AscendC::LocalTensor<float> rows = ub.Alloc<float, 32>();
    AscendC::Duplicate(rows, -1.0f, 32);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE2>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE2>(EVENT_ID0);
    AscendC::DataCopyExtParams copy{1, 5 * sizeof(float), 0, 0, 0};
    AscendC::DataCopyPadExtParams<float> noPad{false, 0, 3, 0.0f};
    AscendC::DataCopyPad(rows, ig, copy, noPad);
    AscendC::SetPadValue(7.0f);
    AscendC::DataCopyPad(rows[8], ig, copy, noPad);
    AscendC::DataCopyPadExtParams<float> pad2{true, 0, 3, 2.0f};
    AscendC::DataCopyPad(rows[16], ig, copy, pad2);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    __local_mem__ float* row1 = reinterpret_cast<__local_mem__ float*>(rows[8].GetPhyAddr());
    AscendC::Reg::RegTensor<float> r;
    AscendC::Reg::LoadAlign<float, AscendC::Reg::LoadDist::DIST_BRC_B32>(r, row1);
    AscendC::Reg::StoreAlign(row1 + 16, r, AscendC::Reg::CreateMask<float, AscendC::Reg::MaskPattern::VL8>());
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::DataCopy(og, rows, 32);
}

// Loop mode (SetLoopModePara): x is [2][3][2][10] floats; the first 5 of each row go to UB with
// two loops around one 2-row DataCopyPad (rows padded to 32 bytes), then back out compact to
// y [2][3][2][5] with two loops around one DataCopyPad out. After ResetLoopModePara a copy is a
// single pass again: z gets row 0 only. `ubStride1` is loop1's UB-side stride in bytes (64).
extern "C" __global__ __aicore__ void loop_mode_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t ubStride1) {
    AscendC::GlobalTensor<float> xg, yg, zg;
    xg.SetGlobalBuffer((__gm__ float*)x, 120);
    yg.SetGlobalBuffer((__gm__ float*)y, 60);
    zg.SetGlobalBuffer((__gm__ float*)z, 16);
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
    AscendC::LocalTensor<float> tile = ub.Alloc<float, 96>();
    AscendC::LocalTensor<float> single = ub.Alloc<float, 16>();
    AscendC::DataCopyExtParams rows{2, 5 * sizeof(float), 5 * sizeof(float), 0, 0};
    AscendC::DataCopyPadExtParams<float> pad{true, 0, 3, 0.0f};
    AscendC::LoopModeParams in{3, 2, 80, ubStride1, 240, 192};
    AscendC::SetLoopModePara(in, AscendC::DataCopyMVType::OUT_TO_UB);
    AscendC::DataCopyPad(tile, xg, rows, pad);
    AscendC::ResetLoopModePara(AscendC::DataCopyMVType::OUT_TO_UB);
    AscendC::Duplicate(single, -1.0f, 16);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE2>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE2>(EVENT_ID0);
    AscendC::DataCopyPad(single, xg, rows, pad);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
    AscendC::DataCopyExtParams out{2, 5 * sizeof(float), 0, 0, 0};
    AscendC::LoopModeParams back{3, 2, 64, 40, 192, 120};
    AscendC::SetLoopModePara(back, AscendC::DataCopyMVType::UB_TO_OUT);
    AscendC::DataCopyPad(yg, tile, out);
    AscendC::ResetLoopModePara(AscendC::DataCopyMVType::UB_TO_OUT);
    AscendC::DataCopy(zg, single, 16);
}

// Multi-dimensional copy (MultiCopyParams): x is [3][5] floats. Copy 1 (constant padding -7): each
// row gets 1 element of left and 2 of right padding (8 per row) and one padding row follows.
// Copy 2 repeats that twice (a broadcast loop with source stride 0) with nearest-value padding.
// `rowStride` is loop 1's destination stride in elements (8).
extern "C" __global__ __aicore__ void nd_copy_kernel(GM_ADDR x, GM_ADDR y, uint32_t rowStride) {
    AscendC::GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float*)x, 15);
    yg.SetGlobalBuffer((__gm__ float*)y, 96);
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
    AscendC::LocalTensor<float> t = ub.Alloc<float, 96>();
    AscendC::MultiCopyParams<float, 2> flat;
    flat.loopInfo.loopSize[0] = 5;
    flat.loopInfo.loopSrcStride[0] = 1;
    flat.loopInfo.loopDstStride[0] = 1;
    flat.loopInfo.loopLpSize[0] = 1;
    flat.loopInfo.loopRpSize[0] = 2;
    flat.loopInfo.loopSize[1] = 3;
    flat.loopInfo.loopSrcStride[1] = 5;
    flat.loopInfo.loopDstStride[1] = rowStride;
    flat.loopInfo.loopRpSize[1] = 1;
    flat.constantValue = -7.0f;
    AscendC::DataCopy<float, 2>(t, xg, flat);
    static constexpr AscendC::NdDmaConfig nearest{true, AscendC::NdDmaConfig::unsetPad,
                                                  AscendC::NdDmaConfig::unsetPad, false};
    AscendC::NdDmaParams<float, 3> twice;
    for (int i = 0; i < 2; ++i) {
        twice.loopInfo.loopSize[i] = flat.loopInfo.loopSize[i];
        twice.loopInfo.loopSrcStride[i] = flat.loopInfo.loopSrcStride[i];
        twice.loopInfo.loopDstStride[i] = flat.loopInfo.loopDstStride[i];
        twice.loopInfo.loopLpSize[i] = flat.loopInfo.loopLpSize[i];
        twice.loopInfo.loopRpSize[i] = flat.loopInfo.loopRpSize[i];
    }
    twice.loopInfo.loopSize[2] = 2;
    twice.loopInfo.loopDstStride[2] = 32;
    AscendC::NdDmaDci();
    AscendC::DataCopy<float, 3, nearest>(t[32], xg, twice);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
    AscendC::DataCopy(yg, t, 96);
}

// Inverse hyperbolic functions of the math library: out = [asinh(x), acosh(x), atanh(x / 4)].
extern "C" __global__ __aicore__ void inverse_hyperbolic_kernel(GM_ADDR x, GM_ADDR out) {
    constexpr uint32_t n = 64;
    AscendC::GlobalTensor<float> xg, og;
    xg.SetGlobalBuffer((__gm__ float*)x, n);
    og.SetGlobalBuffer((__gm__ float*)out, 3 * n);
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
    AscendC::LocalTensor<float> lx = ub.Alloc<float, n>();
    AscendC::LocalTensor<float> quarter = ub.Alloc<float, n>();
    AscendC::LocalTensor<float> lo = ub.Alloc<float, 3 * n>();
    AscendC::DataCopy(lx, xg, n);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::Asinh(lo, lx, n);
    AscendC::Acosh(lo[n], lx, n);
    AscendC::Muls(quarter, lx, 0.25f, n);
    AscendC::Atanh(lo[2 * n], quarter, n);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::DataCopy(og, lo, 3 * n);
}

// AddRelu (count form) and SubRelu (repeat form, one 64-float repeat): out = [max(x + y, 0),
// max(x - y, 0)].
extern "C" __global__ __aicore__ void add_relu_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR out) {
    constexpr uint32_t n = 64;
    AscendC::GlobalTensor<float> xg, yg, og;
    xg.SetGlobalBuffer((__gm__ float*)x, n);
    yg.SetGlobalBuffer((__gm__ float*)y, n);
    og.SetGlobalBuffer((__gm__ float*)out, 2 * n);
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
    AscendC::LocalTensor<float> lx = ub.Alloc<float, n>();
    AscendC::LocalTensor<float> ly = ub.Alloc<float, n>();
    AscendC::LocalTensor<float> lo = ub.Alloc<float, 2 * n>();
    AscendC::DataCopy(lx, xg, n);
    AscendC::DataCopy(ly, yg, n);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::AddRelu(lo, lx, ly, int32_t(n));
    AscendC::SubRelu(lo[n], lx, ly, uint64_t(64), 1, AscendC::BinaryRepeatParams{});
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::DataCopy(og, lo, 2 * n);
}

// TBufPool: pool2 shares pool1's start; pool1 holds a queue and a TBuf, the data goes through them
// (out = 2 * x), then pool1 is Reset and pool2 lays a TBuf over the same bytes. out[64..66] are the
// UB addresses of the queue buffer, the TBuf and pool2's TBuf. `extra` enlarges pool1's TBuf.
extern "C" __global__ __aicore__ void buf_pool_kernel(GM_ADDR x, GM_ADDR out, uint32_t extra) {
    AscendC::TPipe pipe;
    AscendC::TBufPool<AscendC::TPosition::VECCALC> pool1, pool2;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> qin;
    AscendC::TBuf<AscendC::TPosition::VECCALC> tmp, later;
    pipe.InitBufPool(pool1, 1024);
    pipe.InitBufPool(pool2, 1024, pool1);
    pool1.InitBuffer(qin, 1, 256);
    pool1.InitBuffer(tmp, 256 + extra);
    AscendC::GlobalTensor<float> xg, og;
    xg.SetGlobalBuffer((__gm__ float*)x, 64);
    og.SetGlobalBuffer((__gm__ float*)out, 72);
    AscendC::LocalTensor<float> a = qin.AllocTensor<float>();
    AscendC::DataCopy(a, xg, 64);
    qin.EnQue(a);
    a = qin.DeQue<float>();
    AscendC::LocalTensor<float> t = tmp.Get<float>();
    AscendC::Muls(t, a, 2.0f, 64);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::DataCopy(og, t, 64);
    qin.FreeTensor(a);
    pool1.Reset();
    pool2.InitBuffer(later, 1024);
    AscendC::LocalTensor<float> l = later.Get<float>();
    og.SetValue(64, float(a.GetPhyAddr()));
    og.SetValue(65, float(t.GetPhyAddr()));
    og.SetValue(66, float(l.GetPhyAddr()));
}

// The ReduceType-templated reductions over 2 repeats of 64 floats: out[0..1] per-repeat sums
// (ReduceRepeat<SUM>), out[8..9] per-repeat maxima (ReduceRepeat<MAX>, values only), out[16..31]
// per-block minima (ReduceDataBlock<MIN>), out[32..95] pair sums (ReducePairElem<SUM>).
extern "C" __global__ __aicore__ void reduce_type_kernel(GM_ADDR x, GM_ADDR out) {
    AscendC::GlobalTensor<float> xg, og;
    xg.SetGlobalBuffer((__gm__ float*)x, 128);
    og.SetGlobalBuffer((__gm__ float*)out, 96);
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
    AscendC::LocalTensor<float> lx = ub.Alloc<float, 128>();
    AscendC::LocalTensor<float> lo = ub.Alloc<float, 96>();
    AscendC::DataCopy(lx, xg, 128);
    AscendC::Duplicate(lo, 0.0f, 96);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::ReduceRepeat<AscendC::ReduceType::SUM, float>(lo, lx, 64, 2, 1, 1, 8);
    AscendC::ReduceRepeat<AscendC::ReduceType::MAX, float>(lo[8], lx, 64, 2, 1, 1, 8,
                                                           AscendC::ReduceOrder::ORDER_ONLY_VALUE);
    uint64_t all[2] = {~0ull, 0};
    AscendC::ReduceDataBlock<AscendC::ReduceType::MIN, float>(lo[16], lx, all, 2, 1, 1, 8);
    AscendC::ReducePairElem<AscendC::ReduceType::SUM, float>(lo[32], lx, 64, 2, 1, 1, 8);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::DataCopy(og, lo, 96);
}

// LocalTensor(pos, addr, tileSize): out = x + 1 through two tensors placed by address; `addr` is
// the second tensor's byte address (256, or a misaligned one).
extern "C" __global__ __aicore__ void placed_tensor_kernel(GM_ADDR x, GM_ADDR out, uint32_t addr) {
    AscendC::GlobalTensor<float> xg, og;
    xg.SetGlobalBuffer((__gm__ float*)x, 64);
    og.SetGlobalBuffer((__gm__ float*)out, 64);
    AscendC::LocalTensor<float> in(AscendC::TPosition::VECIN, 0, 64);
    AscendC::LocalTensor<float> res(AscendC::TPosition::VECOUT, addr, 64);
    AscendC::DataCopy(in, xg, 64);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::Adds(res, in, 1.0f, 64);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::DataCopy(og, res, 64);
}

// Interleave and DeInterleave of two 64-element int32 tensors, and DeInterleave of one:
// out = [I0 | I1 | D0 | D1 | S0 | S1] (64, 64, 64, 64, 32, 32 elements). `count` is the count given.
extern "C" __global__ __aicore__ void interleave_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR out, int32_t count) {
    AscendC::GlobalTensor<int32_t> ag, bg, og;
    ag.SetGlobalBuffer((__gm__ int32_t*)a, 64);
    bg.SetGlobalBuffer((__gm__ int32_t*)b, 64);
    og.SetGlobalBuffer((__gm__ int32_t*)out, 320);
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
    AscendC::LocalTensor<int32_t> la = ub.Alloc<int32_t, 64>();
    AscendC::LocalTensor<int32_t> lb = ub.Alloc<int32_t, 64>();
    AscendC::LocalTensor<int32_t> lo = ub.Alloc<int32_t, 320>();
    AscendC::DataCopy(la, ag, 64);
    AscendC::DataCopy(lb, bg, 64);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::Interleave(lo, lo[64], la, lb, count);
    AscendC::DeInterleave(lo[128], lo[192], la, lb, 64);
    AscendC::DeInterleave(lo[256], lo[288], la, 64);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::DataCopy(og, lo, 320);
}
