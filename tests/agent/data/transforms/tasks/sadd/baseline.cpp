// An add kernel written for these tests in the style of the public AscendC samples: a fixed
// problem size split evenly over eight blocks, a tile loop through TQue queues, one buffer per
// queue, and no @tunable annotations (the policy must find the knobs itself).
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t TOTAL_LENGTH = 48 * 8192;
constexpr int32_t USE_CORE_NUM = 8;
constexpr int32_t BLOCK_LENGTH = TOTAL_LENGTH / USE_CORE_NUM;
constexpr int32_t TILE_NUM = 8;
constexpr int32_t BUFFER_NUM = 1;
constexpr int32_t TILE_LENGTH = BLOCK_LENGTH / TILE_NUM / BUFFER_NUM;

class AddInBlocks {
public:
    __aicore__ inline AddInBlocks() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
        xGm.SetGlobalBuffer((__gm__ half*)x + BLOCK_LENGTH * GetBlockIdx(), BLOCK_LENGTH);
        yGm.SetGlobalBuffer((__gm__ half*)y + BLOCK_LENGTH * GetBlockIdx(), BLOCK_LENGTH);
        zGm.SetGlobalBuffer((__gm__ half*)z + BLOCK_LENGTH * GetBlockIdx(), BLOCK_LENGTH);
        pipe.InitBuffer(qx, BUFFER_NUM, TILE_LENGTH * sizeof(half));
        pipe.InitBuffer(qy, BUFFER_NUM, TILE_LENGTH * sizeof(half));
        pipe.InitBuffer(qz, BUFFER_NUM, TILE_LENGTH * sizeof(half));
    }
    __aicore__ inline void Process() {
        for (int32_t i = 0; i < TILE_NUM * BUFFER_NUM; i++) {
            CopyIn(i);
            Compute();
            CopyOut(i);
        }
    }

private:
    __aicore__ inline void CopyIn(int32_t i) {
        LocalTensor<half> a = qx.AllocTensor<half>();
        LocalTensor<half> b = qy.AllocTensor<half>();
        DataCopy(a, xGm[i * TILE_LENGTH], TILE_LENGTH);
        DataCopy(b, yGm[i * TILE_LENGTH], TILE_LENGTH);
        qx.EnQue(a);
        qy.EnQue(b);
    }
    __aicore__ inline void Compute() {
        LocalTensor<half> a = qx.DeQue<half>();
        LocalTensor<half> b = qy.DeQue<half>();
        LocalTensor<half> c = qz.AllocTensor<half>();
        Add(c, a, b, TILE_LENGTH);
        qz.EnQue<half>(c);
        qx.FreeTensor(a);
        qy.FreeTensor(b);
    }
    __aicore__ inline void CopyOut(int32_t i) {
        LocalTensor<half> c = qz.DeQue<half>();
        DataCopy(zGm[i * TILE_LENGTH], c, TILE_LENGTH);
        qz.FreeTensor(c);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 1> qx, qy;
    TQue<QuePosition::VECOUT, 1> qz;
    GlobalTensor<half> xGm, yGm, zGm;
};

extern "C" __global__ __aicore__ void add_in_blocks(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    AddInBlocks op;
    op.Init(x, y, z);
    op.Process();
}

SAGE_HOST(ctx) {
    ICPU_RUN_KF(add_in_blocks, USE_CORE_NUM, ctx.gm("x"), ctx.gm("y"), ctx.gm("z"));
}
