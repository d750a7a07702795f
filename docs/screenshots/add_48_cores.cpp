// The add baseline on 48 cores (BLOCK_DIM 48), for the grouped-cores timeline screenshot in
// docs/user-guide.md section 4. Otherwise the task's naive baseline.cpp.
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t TILE_LENGTH = 256;  // @tunable tile_length {128, 256, 512, 1024, 2048, 4096, 8192}
constexpr int32_t BUFFER_NUM = 1;      // @tunable buffer_num {1, 2}
constexpr uint32_t BLOCK_DIM = 48;     // @tunable block_dim {1, 2, 4, 8, 16, 24, 32, 48}

struct AddTiling {
    uint32_t totalLength;
};

class KernelAdd {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength) {
        // Split the elements across blocks in whole tiles; the last block takes the remainder.
        uint32_t tiles = (totalLength + TILE_LENGTH - 1) / TILE_LENGTH;
        uint32_t tilesPerBlock = (tiles + GetBlockNum() - 1) / GetBlockNum();
        uint32_t start = tilesPerBlock * TILE_LENGTH * GetBlockIdx();
        uint32_t end = start + tilesPerBlock * TILE_LENGTH;
        if (end > totalLength) end = totalLength;
        length_ = start < end ? end - start : 0;
        xGm.SetGlobalBuffer((__gm__ half*)x + start, length_);
        yGm.SetGlobalBuffer((__gm__ half*)y + start, length_);
        zGm.SetGlobalBuffer((__gm__ half*)z + start, length_);
        pipe.InitBuffer(inX, BUFFER_NUM, TILE_LENGTH * sizeof(half));
        pipe.InitBuffer(inY, BUFFER_NUM, TILE_LENGTH * sizeof(half));
        pipe.InitBuffer(outZ, BUFFER_NUM, TILE_LENGTH * sizeof(half));
    }
    __aicore__ inline void Process() {
        for (uint32_t off = 0; off < length_; off += TILE_LENGTH) {
            uint32_t n = length_ - off < TILE_LENGTH ? length_ - off : TILE_LENGTH;
            CopyIn(off, n);
            Compute(n);
            CopyOut(off, n);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t off, uint32_t n) {
        LocalTensor<half> x = inX.AllocTensor<half>();
        LocalTensor<half> y = inY.AllocTensor<half>();
        DataCopyExtParams p{1, n * (uint32_t)sizeof(half), 0, 0, 0};
        DataCopyPadExtParams<half> pad{false, 0, 0, half(0.0f)};
        DataCopyPad(x, xGm[off], p, pad);
        DataCopyPad(y, yGm[off], p, pad);
        inX.EnQue(x);
        inY.EnQue(y);
    }
    __aicore__ inline void Compute(uint32_t n) {
        LocalTensor<half> x = inX.DeQue<half>();
        LocalTensor<half> y = inY.DeQue<half>();
        LocalTensor<half> z = outZ.AllocTensor<half>();
        Add(z, x, y, n);
        outZ.EnQue(z);
        inX.FreeTensor(x);
        inY.FreeTensor(y);
    }
    __aicore__ inline void CopyOut(uint32_t off, uint32_t n) {
        LocalTensor<half> z = outZ.DeQue<half>();
        DataCopyPad(zGm[off], z, DataCopyExtParams{1, n * (uint32_t)sizeof(half), 0, 0, 0});
        outZ.FreeTensor(z);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, 1> inX, inY;
    TQue<TPosition::VECOUT, 1> outZ;
    GlobalTensor<half> xGm, yGm, zGm;
    uint32_t length_ = 0;
};

extern "C" __global__ __aicore__ void add_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling) {
    GET_TILING_DATA(t, tiling);
    KernelAdd op;
    op.Init(x, y, z, t.totalLength);
    op.Process();
}

SAGE_HOST(ctx) {
    AddTiling t{(uint32_t)ctx.numel("x")};
    ICPU_RUN_KF(add_kernel, BLOCK_DIM, ctx.gm("x"), ctx.gm("y"), ctx.gm("z"), ctx.tiling(t));
}
