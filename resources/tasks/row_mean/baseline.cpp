// row_mean: y[m] = mean over n of x[m][n], x bfloat16 [M, N] (summed in float).
// Naive first draft: one block, one buffer per queue, a few rows per tile. Every row is processed
// on its own with count-form vector instructions and the row statistics read back with GetValue.
// Rows are copied with DataCopyPad (each row padded to 32 bytes in UB), so any N works.
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t ROWS_PER_TILE = 1;  // @tunable rows_per_tile {1, 2, 4, 8, 16}
constexpr int32_t BUFFER_NUM = 1;      // @tunable buffer_num {1, 2}
constexpr uint32_t BLOCK_DIM = 1;      // @tunable block_dim {1, 2, 4, 8, 16, 24, 32, 48}

struct RowMeanTiling {
    uint32_t rows;  // M
    uint32_t cols;  // N
};

class KernelRowMean {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const RowMeanTiling& t) {
        cols_ = t.cols;
        pitch_ = (t.cols + 15) / 16 * 16;  // UB row pitch in elements (32-byte aligned)
        // Split the rows across blocks; the last block takes the remainder.
        uint32_t rowsPerBlock = (t.rows + GetBlockNum() - 1) / GetBlockNum();
        uint32_t first = rowsPerBlock * GetBlockIdx();
        if (first > t.rows) first = t.rows;
        uint32_t last = first + rowsPerBlock < t.rows ? first + rowsPerBlock : t.rows;
        rows_ = last - first;
        xGm.SetGlobalBuffer((__gm__ bfloat16_t*)x + (uint64_t)first * cols_, (uint64_t)rows_ * cols_);
        yGm.SetGlobalBuffer((__gm__ bfloat16_t*)y + first, rows_);
        pipe.InitBuffer(inQ, BUFFER_NUM, ROWS_PER_TILE * pitch_ * sizeof(bfloat16_t));
        pipe.InitBuffer(outQ, BUFFER_NUM, (ROWS_PER_TILE * sizeof(bfloat16_t) + 31) / 32 * 32);
        pipe.InitBuffer(redBuf, 32);
        pipe.InitBuffer(workBuf, pitch_ * sizeof(float));
        pipe.InitBuffer(fxBuf, pitch_ * sizeof(float));
        pipe.InitBuffer(meanBuf, ROWS_PER_TILE * sizeof(float));
    }
    __aicore__ inline void Process() {
        for (uint32_t r0 = 0; r0 < rows_; r0 += ROWS_PER_TILE) {
            uint32_t n = rows_ - r0 < ROWS_PER_TILE ? rows_ - r0 : ROWS_PER_TILE;
            CopyIn(r0, n);
            Compute(r0, n);
            CopyOut(r0, n);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t r0, uint32_t n) {
        LocalTensor<bfloat16_t> x = inQ.AllocTensor<bfloat16_t>();
        DataCopyPad(x, xGm[(uint64_t)r0 * cols_], DataCopyExtParams{(uint16_t)n, cols_ * (uint32_t)sizeof(bfloat16_t), 0, 0, 0},
                    DataCopyPadExtParams<bfloat16_t>{false, 0, 0, bfloat16_t(0.0f)});
        inQ.EnQue(x);
    }
    __aicore__ inline void Compute(uint32_t r0, uint32_t n) {
        LocalTensor<bfloat16_t> x = inQ.DeQue<bfloat16_t>();
        LocalTensor<bfloat16_t> y = outQ.AllocTensor<bfloat16_t>();
        LocalTensor<float> red = redBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> fx = fxBuf.Get<float>();
        LocalTensor<float> mean = meanBuf.Get<float>();
        for (uint32_t r = 0; r < n; ++r) {
            LocalTensor<bfloat16_t> xr = x[r * pitch_];
            Cast(fx, xr, RoundMode::CAST_NONE, cols_);
            ReduceSum(red, fx, work, cols_);
            mean.SetValue(r, red.GetValue(0) / (float)cols_);
        }
        Cast(y, mean, RoundMode::CAST_RINT, n);
        outQ.EnQue(y);
        inQ.FreeTensor(x);
    }
    __aicore__ inline void CopyOut(uint32_t r0, uint32_t n) {
        LocalTensor<bfloat16_t> y = outQ.DeQue<bfloat16_t>();
        DataCopyPad(yGm[r0], y, DataCopyExtParams{1, n * (uint32_t)sizeof(bfloat16_t), 0, 0, 0});
        outQ.FreeTensor(y);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> redBuf, workBuf, fxBuf, meanBuf;
    GlobalTensor<bfloat16_t> xGm;
    GlobalTensor<bfloat16_t> yGm;
    uint32_t rows_ = 0, cols_ = 0, pitch_ = 0;
};

extern "C" __global__ __aicore__ void row_mean_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(RowMeanTiling, t, tiling);
    KernelRowMean op;
    op.Init(x, y, t);
    op.Process();
}

SAGE_HOST(ctx) {
    RowMeanTiling t{(uint32_t)ctx.shape("x", 0), (uint32_t)ctx.shape("x", 1)};
    ICPU_RUN_KF(row_mean_kernel, BLOCK_DIM, ctx.gm("x"), ctx.gm("y"), ctx.tiling(t));
}
