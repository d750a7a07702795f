// mse_loss: z[0] = mean((x - y)^2) over float32 vectors of length N.
// Naive first draft: one block, one buffer per queue, small tiles; every tile is reduced with
// ReduceSum and its sum read back with GetValue into a scalar accumulator. Blocks cannot wait for
// each other, so there are two launches: (1) each block atomically adds its partial sum into a
// zeroed GM workspace; (2) one block scales the total by 1/N and writes z. The last partial tile
// is copied with DataCopyPad so any length works.
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t TILE_LENGTH = 256;  // @tunable tile_length {128, 256, 512, 1024, 2048, 4096}
constexpr int32_t BUFFER_NUM = 1;      // @tunable buffer_num {1, 2}
constexpr uint32_t BLOCK_DIM = 1;      // @tunable block_dim {1, 2, 4, 8, 16, 24, 32, 48}

struct MseLossTiling {
    uint32_t totalLength;
};

class KernelMsePartial {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR sum, const MseLossTiling& t) {
        // Split the elements across blocks in whole tiles; the last block takes the remainder.
        uint32_t tiles = (t.totalLength + TILE_LENGTH - 1) / TILE_LENGTH;
        uint32_t tilesPerBlock = (tiles + GetBlockNum() - 1) / GetBlockNum();
        uint32_t start = tilesPerBlock * TILE_LENGTH * GetBlockIdx();
        uint32_t end = start + tilesPerBlock * TILE_LENGTH;
        if (end > t.totalLength) end = t.totalLength;
        if (start > end) start = end;
        length_ = end - start;
        xGm.SetGlobalBuffer((__gm__ float*)x + start, length_);
        yGm.SetGlobalBuffer((__gm__ float*)y + start, length_);
        sumGm.SetGlobalBuffer((__gm__ float*)sum, 1);
        pipe.InitBuffer(inX, BUFFER_NUM, TILE_LENGTH * sizeof(float));
        pipe.InitBuffer(inY, BUFFER_NUM, TILE_LENGTH * sizeof(float));
        pipe.InitBuffer(outQ, 1, 32);
        pipe.InitBuffer(diffBuf, TILE_LENGTH * sizeof(float));
        pipe.InitBuffer(redBuf, 32);
        pipe.InitBuffer(workBuf, TILE_LENGTH * sizeof(float));
    }
    __aicore__ inline void Process() {
        float acc = 0.0f;
        for (uint32_t off = 0; off < length_; off += TILE_LENGTH) {
            uint32_t n = length_ - off < TILE_LENGTH ? length_ - off : TILE_LENGTH;
            CopyIn(off, n);
            acc += Compute(n);
        }
        // This block's partial sum -> GM, accumulated atomically with the other blocks'.
        LocalTensor<float> out = outQ.AllocTensor<float>();
        out.SetValue(0, acc);
        outQ.EnQue(out);
        out = outQ.DeQue<float>();
        SetAtomicAdd<float>();
        DataCopyPad(sumGm, out, DataCopyExtParams{1, (uint32_t)sizeof(float), 0, 0, 0});
        SetAtomicNone();
        outQ.FreeTensor(out);
    }

private:
    __aicore__ inline void CopyIn(uint32_t off, uint32_t n) {
        LocalTensor<float> x = inX.AllocTensor<float>();
        LocalTensor<float> y = inY.AllocTensor<float>();
        DataCopyExtParams p{1, n * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(x, xGm[off], p, pad);
        DataCopyPad(y, yGm[off], p, pad);
        inX.EnQue(x);
        inY.EnQue(y);
    }
    __aicore__ inline float Compute(uint32_t n) {
        LocalTensor<float> x = inX.DeQue<float>();
        LocalTensor<float> y = inY.DeQue<float>();
        LocalTensor<float> d = diffBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        Sub(d, x, y, n);
        Mul(d, d, d, n);
        ReduceSum(red, d, work, n);
        inX.FreeTensor(x);
        inY.FreeTensor(y);
        return red.GetValue(0);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, 1> inX, inY;
    TQue<TPosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> diffBuf, redBuf, workBuf;
    GlobalTensor<float> xGm, yGm, sumGm;
    uint32_t length_ = 0;
};

// Launch 1: partial sums of squared differences, added into sum[0] (zeroed workspace).
extern "C" __global__ __aicore__ void mse_partial_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR sum, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(MseLossTiling, t, tiling);
    KernelMsePartial op;
    op.Init(x, y, sum, t);
    op.Process();
}

// Launch 2 (one block): z[0] = sum[0] / N.
extern "C" __global__ __aicore__ void mse_finish_kernel(GM_ADDR sum, GM_ADDR z, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(MseLossTiling, t, tiling);
    GlobalTensor<float> sumGm, zGm;
    sumGm.SetGlobalBuffer((__gm__ float*)sum, 1);
    zGm.SetGlobalBuffer((__gm__ float*)z, 1);
    zGm.SetValue(0, sumGm.GetValue(0) / (float)t.totalLength);
}

SAGE_HOST(ctx) {
    MseLossTiling t{(uint32_t)ctx.numel("x")};
    GM_ADDR tiling = ctx.tiling(t);
    GM_ADDR sum = ctx.workspace(32);  // zeroed
    ICPU_RUN_KF(mse_partial_kernel, BLOCK_DIM, ctx.gm("x"), ctx.gm("y"), sum, tiling);
    ICPU_RUN_KF(mse_finish_kernel, 1, sum, ctx.gm("z"), tiling);
}
