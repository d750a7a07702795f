// Synchronisation, scalar access, tiling and namespace-alias kernels for test_npu_api.
#include "kernel_operator.h"

using namespace AscendC;

// y = x + 1 over `tiles` tiles of `tile` floats, with TBuf buffers reused across tiles and every
// cross-pipe hand-over synchronised by hand: MTE2 -> V (data in), V -> MTE3 (data out), and the
// reverse edges V -> MTE2 / MTE3 -> V before a buffer is overwritten for the next tile.
// `mode` 0: flags; 1: PipeBarrier<PIPE_ALL> instead; 2: flags but the MTE2 -> V edge left out.
extern "C" __global__ __aicore__ void tbuf_sync_kernel(GM_ADDR x, GM_ADDR y, uint32_t tile, uint32_t tiles, int mode)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> inBuf, outBuf;
    pipe.InitBuffer(inBuf, tile * sizeof(float));
    pipe.InitBuffer(outBuf, tile * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, tile * tiles);
    yGm.SetGlobalBuffer((__gm__ float*)y, tile * tiles);
    LocalTensor<float> in = inBuf.Get<float>();
    LocalTensor<float> out = outBuf.Get<float>();
    for (uint32_t t = 0; t < tiles; ++t) {
        if (t > 0 && mode != 1) {
            WaitFlag<HardEvent::V_MTE2>(EVENT_ID2);  // V finished reading `in`
        }
        DataCopy(in, xGm[t * tile], tile);
        if (mode == 0) {
            SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
            WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
        } else if (mode == 1) {
            PipeBarrier<PIPE_ALL>();
        }
        if (t > 0 && mode != 1) {
            WaitFlag<HardEvent::MTE3_V>(EVENT_ID3);  // MTE3 finished reading `out`
        }
        Adds(out, in, 1.0f, int32_t(tile));
        if (mode != 1 && t + 1 < tiles) SetFlag<HardEvent::V_MTE2>(EVENT_ID2);
        if (mode == 1) {
            PipeBarrier<PIPE_ALL>();
        } else {
            SetFlag<HardEvent::V_MTE3>(EVENT_ID1);
            WaitFlag<HardEvent::V_MTE3>(EVENT_ID1);
        }
        DataCopy(yGm[t * tile], out, tile);
        if (mode != 1 && t + 1 < tiles) SetFlag<HardEvent::MTE3_V>(EVENT_ID3);
        if (mode == 1) PipeBarrier<PIPE_ALL>();
    }
}

// Scalar access: y[i] = 2 * x[i] + 1 through LocalTensor::GetValue/SetValue for the first
// `scalarN` elements, and z[i] = x[i] - 1 through GlobalTensor::GetValue/SetValue directly.
extern "C" __global__ __aicore__ void scalar_access_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t n,
                                                           uint32_t scalarN)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> qi;
    TQue<QuePosition::VECOUT, 1> qo;
    pipe.InitBuffer(qi, 1, n * sizeof(float));
    pipe.InitBuffer(qo, 1, n * sizeof(float));
    GlobalTensor<float> xGm, yGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, n);
    yGm.SetGlobalBuffer((__gm__ float*)y, n);
    zGm.SetGlobalBuffer((__gm__ float*)z, n);
    LocalTensor<float> a = qi.AllocTensor<float>();
    DataCopy(a, xGm, n);
    qi.EnQue(a);
    LocalTensor<float> in = qi.DeQue<float>();
    LocalTensor<float> out = qo.AllocTensor<float>();
    Duplicate(out, -1.0f, int32_t(n));
    for (uint32_t i = 0; i < scalarN; ++i) out.SetValue(i, 2.0f * in.GetValue(i) + 1.0f);
    qo.EnQue(out);
    qi.FreeTensor(in);
    LocalTensor<float> o = qo.DeQue<float>();
    DataCopy(yGm, o, n);
    qo.FreeTensor(o);
    for (uint32_t i = 0; i < n; ++i) zGm.SetValue(i, xGm.GetValue(i) - 1.0f);
}

// GET_TILING_DATA with a BEGIN_TILING_DATA_DEF struct (SAGE_TILING_TYPE defaults to TilingData),
// and TILING_KEY_IS branches: key 1 -> y = x * scale, key 2 -> y = x + scale, else y = x.
BEGIN_TILING_DATA_DEF(TilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength)
TILING_DATA_FIELD_DEF(uint32_t, blockLength)
TILING_DATA_FIELD_DEF(float, scale)
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(TilingKernel, TilingData)

extern "C" __global__ __aicore__ void tiling_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    ASSERT(td.totalLength == td.blockLength * GetBlockNum());
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, td.blockLength * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x + td.blockLength * GetBlockIdx(), td.blockLength);
    yGm.SetGlobalBuffer((__gm__ float*)y + td.blockLength * GetBlockIdx(), td.blockLength);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, xGm, td.blockLength);
    PipeBarrier<PIPE_ALL>();
    if (TILING_KEY_IS(1)) {
        Muls(t, t, td.scale, int32_t(td.blockLength));
    } else if (TILING_KEY_IS(2)) {
        Adds(t, t, td.scale, int32_t(td.blockLength));
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, t, td.blockLength);
}

// GET_TILING_DATA_WITH_STRUCT and the `tik2` spelling of the namespace used by older samples.
struct ShiftTiling {
    uint32_t length;
    int32_t shift;
};

extern "C" __global__ __aicore__ void tik2_tiling_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(ShiftTiling, td, tiling);
    tik2::TPipe pipe;
    tik2::TQue<tik2::QuePosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, td.length * sizeof(int32_t));
    tik2::GlobalTensor<int32_t> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ int32_t*)x, td.length);
    yGm.SetGlobalBuffer((__gm__ int32_t*)y, td.length);
    tik2::LocalTensor<int32_t> t = q.AllocTensor<int32_t>();
    tik2::DataCopy(t, xGm, td.length);
    q.EnQue(t);
    tik2::LocalTensor<int32_t> u = q.DeQue<int32_t>();
    tik2::Adds(u, u, td.shift, int32_t(td.length));
    tik2::PipeBarrier<PIPE_ALL>();
    tik2::DataCopy(yGm, u, td.length);
    q.FreeTensor(u);
}
