// z = alpha * x + y for half vectors of any length N (docs/kernel-api.md, example 1).
// Blocks split N in whole 32-byte units; each block streams its range in tiles with double
// buffering; the one tile that is not a multiple of 16 halfs goes through DataCopyPad.
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;  // two buffers per queue: copy-in of tile i+1 overlaps compute of tile i
constexpr uint32_t TILE = 8192;    // halfs per tile: 16 KB per buffer, 3 queues x 2 x 16 KB = 96 KB of UB

struct AxpyTiling {
    uint32_t totalLength;  // N
    float alpha;
};

class KernelAxpy {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const AxpyTiling& t)
    {
        alpha_ = half(t.alpha);
        const uint32_t units = (t.totalLength + 15) / 16;  // 32-byte units of 16 halfs
        const uint32_t perBlock = (units + GetBlockNum() - 1) / GetBlockNum() * 16;
        const uint32_t start = perBlock * GetBlockIdx();
        const uint32_t end = start + perBlock < t.totalLength ? start + perBlock : t.totalLength;
        length_ = start < end ? end - start : 0;
        xGm.SetGlobalBuffer((__gm__ half*)x + start, length_);
        yGm.SetGlobalBuffer((__gm__ half*)y + start, length_);
        zGm.SetGlobalBuffer((__gm__ half*)z + start, length_);
        pipe.InitBuffer(inX, BUFFER_NUM, TILE * sizeof(half));
        pipe.InitBuffer(inY, BUFFER_NUM, TILE * sizeof(half));
        pipe.InitBuffer(outZ, BUFFER_NUM, TILE * sizeof(half));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t off = 0; off < length_; off += TILE) {
            const uint32_t n = length_ - off < TILE ? length_ - off : TILE;
            CopyIn(off, n);
            Compute(n);
            CopyOut(off, n);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t off, uint32_t n)
    {
        LocalTensor<half> x = inX.AllocTensor<half>();
        LocalTensor<half> y = inY.AllocTensor<half>();
        if (n % 16 == 0) {
            DataCopy(x, xGm[off], n);
            DataCopy(y, yGm[off], n);
        } else {  // the tail: any byte length, padded to 32 bytes in UB
            DataCopyExtParams p{1, n * uint32_t(sizeof(half)), 0, 0, 0};
            DataCopyPadExtParams<half> pad{false, 0, 0, half(0.0f)};
            DataCopyPad(x, xGm[off], p, pad);
            DataCopyPad(y, yGm[off], p, pad);
        }
        inX.EnQue(x);
        inY.EnQue(y);
    }
    __aicore__ inline void Compute(uint32_t n)
    {
        LocalTensor<half> x = inX.DeQue<half>();
        LocalTensor<half> y = inY.DeQue<half>();
        LocalTensor<half> z = outZ.AllocTensor<half>();
        Muls(z, x, alpha_, int32_t(n));  // z = alpha * x
        Add(z, z, y, int32_t(n));        // z = z + y (dst may be the same tensor as a source)
        outZ.EnQue(z);
        inX.FreeTensor(x);
        inY.FreeTensor(y);
    }
    __aicore__ inline void CopyOut(uint32_t off, uint32_t n)
    {
        LocalTensor<half> z = outZ.DeQue<half>();
        if (n % 16 == 0) DataCopy(zGm[off], z, n);
        else DataCopyPad(zGm[off], z, DataCopyExtParams{1, n * uint32_t(sizeof(half)), 0, 0, 0});
        outZ.FreeTensor(z);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, 1> inX, inY;
    TQue<TPosition::VECOUT, 1> outZ;
    GlobalTensor<half> xGm, yGm, zGm;
    uint32_t length_ = 0;
    half alpha_;
};

extern "C" __global__ __aicore__ void axpy_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(AxpyTiling, t, tiling);
    KernelAxpy op;
    op.Init(x, y, z, t);
    op.Process();
}

SAGE_HOST(ctx)
{
    AxpyTiling t{uint32_t(ctx.numel("x")), float(ctx.attr("alpha"))};
    // Enough blocks to reach the chip's GM bandwidth, but at least one tile of work per block.
    uint32_t tiles = (t.totalLength + TILE - 1) / TILE;
    uint32_t blockDim = tiles < 16 ? (tiles == 0 ? 1 : tiles) : 16;
    ICPU_RUN_KF(axpy_kernel, blockDim, ctx.gm("x"), ctx.gm("y"), ctx.gm("z"), ctx.tiling(t));
}
