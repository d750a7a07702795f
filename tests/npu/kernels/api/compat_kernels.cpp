// Kernels for test_npu_api_compat: the small APIs and keywords real op kernels use (issue 13,
// part 3). Written for the test.
#include "kernel_operator.h"

using namespace AscendC;

constexpr half kHalfTwo = 2.0;  // constexpr half, as device code writes constants
static_assert(kHalfTwo.bits == 0x4000, "2.0 in binary16");
static_assert(IsSameType<half, float16_t>::value && !IsSameType<half, float>::value);
static_assert(AlignUp(33u, 32u) == 64u && AlignUp(64, 32) == 64 && AlignUp(uint64_t(1), 16) == 16);

// A kernel's own AlignUp (as many define) must keep compiling next to AscendC's.
__aicore__ inline uint32_t AlignUp(uint32_t a, uint32_t b) { return (a + b - 1) / b * b + 0; }

template <typename T> __forceinline__ __aicore__ T Twice(T v) { return v + v; }

// y = alpha * x + y (Axpy, same type) and yf = alpha * x + yf (half source, float destination);
// the user workspace is where the host put it (the system workspace is empty here).
extern "C" __global__ __aicore__ void axpy_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR yf, GM_ADDR workspace, float alpha)
{
    SetSysWorkspace(workspace);
    GM_ADDR user = GetUserWorkspace(workspace);
    if (unlikely(user == nullptr)) return;
    ASSERT(GetSysWorkSpacePtr() == workspace)  // no semicolon: the device build accepts this
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bf;
    pipe.InitBuffer(bx, 128 * sizeof(half));
    pipe.InitBuffer(by, 128 * sizeof(half));
    pipe.InitBuffer(bf, 128 * sizeof(float));
    GlobalTensor<half> xg, yg;
    GlobalTensor<float> fg, wg;
    xg.SetGlobalBuffer((__gm__ half*)x, 128);
    yg.SetGlobalBuffer((__gm__ half*)y, 128);
    fg.SetGlobalBuffer((__gm__ float*)yf, 128);
    wg.SetGlobalBuffer((__gm__ float*)user, 128);
    LocalTensor<half> lx = bx.Get<half>(), ly = by.Get<half>();
    LocalTensor<float> lf = bf.Get<float>();
    DataCopy(lx, xg, 128);
    DataCopy(ly, yg, 128);
    DataCopy(lf, fg, 128);
    PipeBarrier<PIPE_ALL>();
    if (likely(AlignUp(uint32_t(100), uint32_t(32)) == 128)) {
        Axpy(ly, lx, half(alpha), 128);
        Axpy(lf, lx, half(alpha), 128);
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, ly, 128);
    DataCopy(fg, lf, 128);
    DataCopy(wg, lf, 128);  // a copy into the user workspace
    (void)Twice(1);
}

// dst[i] = src[perm[i]] through byte offsets.
extern "C" __global__ __aicore__ void gather_kernel(GM_ADDR src, GM_ADDR offsets, GM_ADDR dst, uint32_t n)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> bs, bo, bd;
    pipe.InitBuffer(bs, n * sizeof(float));
    pipe.InitBuffer(bo, n * sizeof(uint32_t));
    pipe.InitBuffer(bd, n * sizeof(float));
    GlobalTensor<float> sg, dg;
    GlobalTensor<uint32_t> og;
    sg.SetGlobalBuffer((__gm__ float*)src, n);
    og.SetGlobalBuffer((__gm__ uint32_t*)offsets, n);
    dg.SetGlobalBuffer((__gm__ float*)dst, n);
    LocalTensor<float> ls = bs.Get<float>(), ld = bd.Get<float>();
    LocalTensor<uint32_t> lo = bo.Get<uint32_t>();
    DataCopy(ls, sg, n);
    DataCopy(lo, og, n);
    PipeBarrier<PIPE_ALL>();
    Gather(ld, ls, lo, 0, n);
    PipeBarrier<PIPE_ALL>();
    DataCopy(dg, ld, n);
}

static_assert(__CCE_AICORE__ == 220, "910B is core generation 220");
static_assert(TrueType::value && !FalseType::value);

// out[block] = block_idx * 10 + core type (AIV = 2, or AIC = 1 once the kernel says AIC-only);
// global GetBlockIdx() is the same function as AscendC's.
extern "C" __global__ __aicore__ void core_type_kernel(GM_ADDR out, uint32_t aicOnly)
{
    if (aicOnly) KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    GlobalTensor<int32_t> og;
    og.SetGlobalBuffer((__gm__ int32_t*)out, 8);
    int32_t type = 0;
    if ASCEND_IS_AIV {
        type = AIV;
    }
    if ASCEND_IS_AIC {
        type = AIC;
    }
    og.SetValue(uint64_t(::GetBlockIdx()), int32_t(block_idx * 10 + type + 0 * get_block_num()));
}

// Tiling headers write END_TILING_DATA_DEF with and without a semicolon; both compile, and the
// host-side accessors fill the struct the kernel reads.
BEGIN_TILING_DATA_DEF(NoSemicolonTiling)
    TILING_DATA_FIELD_DEF(uint32_t, length);
    TILING_DATA_FIELD_DEF_ARR(int16_t, 4, parts);
END_TILING_DATA_DEF
inline uint32_t tilingRoundTrip() {
    NoSemicolonTiling t{};
    const int16_t parts[4] = {1, 2, 3, 4};
    t.set_length(40);
    t.set_parts(parts);
    uint8_t raw[sizeof(NoSemicolonTiling)];
    t.SaveToBuffer(raw, sizeof(raw));
    NoSemicolonTiling back;
    std::memcpy(&back, raw, sizeof(back));
    return back.get_length() + uint32_t(back.get_parts()[3]) + uint32_t(t.GetDataSize() == sizeof(t));
}

#include "kernel_assert.h"  // Qt's headers, included by the test before this file, redefine assert

// Element access with tensor(i), the bound queue's user-position EnQue/DeQue, Log(dst, src) and
// the device assert with a message: out[i] = log(in[i]) * 1, then out[3] = 7.
extern "C" __global__ __aicore__ void element_access_kernel(GM_ADDR in, GM_ADDR out)
{
    TPipe pipe;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> que;
    pipe.InitBuffer(que, 1, 64 * sizeof(float));
    GlobalTensor<float> ig, og;
    ig.SetGlobalBuffer((__gm__ float*)in, 64);
    og.SetGlobalBuffer((__gm__ float*)out, 64);
    LocalTensor<float> t = que.AllocTensor<float>();
    DataCopy(t, ig, 64);
    PipeBarrier<PIPE_ALL>();  // a VECIN -> VECOUT queue orders V -> MTE3, not the load
    que.EnQue<TPosition::VECIN, TPosition::VECOUT, float>(t);
    LocalTensor<float> u = que.DeQue<TPosition::VECIN, TPosition::VECOUT, float>();
    Log(u, u);
    set_mask_norm();
    PipeBarrier<PIPE_ALL>();
    assert(u.GetSize() == 64, "size %u", u.GetSize());
    u(3) = 7.0f;
    const float first = u(0);
    u(1) = first;
    DataCopy(og, u, 64);
    que.FreeTensor(u);
}

// A cross-core flag has no partner core in the simulator: reported as unsupported at the call.
extern "C" __global__ __aicore__ void cross_core_kernel(GM_ADDR out)
{
    GlobalTensor<int32_t> og;
    og.SetGlobalBuffer((__gm__ int32_t*)out, 1);
    og.SetValue(0, 1);
    CrossCoreWaitFlag(3);  // CROSS_CORE_WAIT
    og.SetValue(0, 2);
}

// The scalar unit's sqrt, called unqualified as kernels do under `using namespace AscendC`.
inline float scalarSqrtTwice(float v) { return sqrt(v) * 2.0f; }

// Scalar GM helpers through plain pointers: counter[0] += 1 per block (AtomicAdd), counter[1] set
// once from 0 to the first block's index + 100 (AtomicCas), a flag written and read back without
// the data cache, and the UB size read both ways into out[0..1].
extern "C" __global__ __aicore__ void scalar_gm_kernel(GM_ADDR counter, GM_ADDR out)
{
    __gm__ uint32_t* c = reinterpret_cast<__gm__ uint32_t*>(counter);
    __gm__ uint32_t* o = reinterpret_cast<__gm__ uint32_t*>(out);
    AtomicAdd(c, 1u);
    AtomicCas(c + 1, 0u, uint32_t(GetBlockIdx()) + 100u);
    WriteGmByPassDCache(o + 2 + GetBlockIdx(), uint32_t(7 * (GetBlockIdx() + 1)));
    if (GetBlockIdx() == 0) {
        WriteGmByPassDCache(o, ReadGmByPassDCache(o) + GetUBSizeInBytes());
        WriteGmByPassDCache(o + 1, GetRuntimeUBSize());
    }
}

// Broadcast (the newer spelling of BroadCast): a [1, 16] row to [4, 16].
extern "C" __global__ __aicore__ void broadcast_row_kernel(GM_ADDR src, GM_ADDR dst)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> bs, bd;
    pipe.InitBuffer(bs, 16 * sizeof(float));
    pipe.InitBuffer(bd, 64 * sizeof(float));
    GlobalTensor<float> sg, dg;
    sg.SetGlobalBuffer((__gm__ float*)src, 16);
    dg.SetGlobalBuffer((__gm__ float*)dst, 64);
    LocalTensor<float> ls = bs.Get<float>(), ld = bd.Get<float>();
    DataCopy(ls, sg, 16);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    const uint32_t dstShape[2] = {4, 16}, srcShape[2] = {1, 16};
    Broadcast<float, 2, 0>(ld, ls, dstShape, srcShape);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DisableDmaAtomic();
    DataCopy(dg, ld, 64);
}
