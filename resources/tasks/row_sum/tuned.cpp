// row_sum: y[m] = sum over n of x[m][n], x float32 [M, N].
// Tuned: vector instructions instead of a per-row ReduceSum + GetValue/SetValue loop. A tile of
// rows is folded in place onto its first 64 columns with repeat-form Add (one repeat per row, so
// one instruction covers every row of the tile), then WholeReduceSum writes one sum per row
// straight into the output tile: the scalar unit never waits for the vector pipe. Also 32 blocks,
// double buffering and 16-row tiles. Rows are copied with DataCopyPad (each row padded to 32
// bytes in UB), so any N works.
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t ROWS_PER_TILE = 16;  // @tunable rows_per_tile {1, 2, 4, 8, 16, 32, 64}
constexpr int32_t BUFFER_NUM = 2;       // @tunable buffer_num {1, 2}
constexpr uint32_t BLOCK_DIM = 32;      // @tunable block_dim {1, 2, 4, 8, 16, 24, 32, 48}
constexpr uint32_t MAX_TILE_BYTES = 64 * 1024;  // per input buffer; rows per tile shrink to fit

struct RowSumTiling {
    uint32_t rows;  // M
    uint32_t cols;  // N
};

class KernelRowSum {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const RowSumTiling& t) {
        cols_ = t.cols;
        pitch_ = (t.cols + 7) / 8 * 8;  // UB row pitch in floats (32-byte aligned)
        tileRows_ = MAX_TILE_BYTES / (pitch_ * (uint32_t)sizeof(float));
        if (tileRows_ > ROWS_PER_TILE) tileRows_ = ROWS_PER_TILE;
        ASSERT(tileRows_ >= 1 && "a row must fit in MAX_TILE_BYTES");
        // Split the rows across blocks; the last block takes the remainder.
        uint32_t rowsPerBlock = (t.rows + GetBlockNum() - 1) / GetBlockNum();
        uint32_t first = rowsPerBlock * GetBlockIdx();
        if (first > t.rows) first = t.rows;
        uint32_t last = first + rowsPerBlock < t.rows ? first + rowsPerBlock : t.rows;
        rows_ = last - first;
        xGm.SetGlobalBuffer((__gm__ float*)x + (uint64_t)first * cols_, (uint64_t)rows_ * cols_);
        yGm.SetGlobalBuffer((__gm__ float*)y + first, rows_);
        pipe.InitBuffer(inQ, BUFFER_NUM, tileRows_ * pitch_ * sizeof(float));
        pipe.InitBuffer(outQ, BUFFER_NUM, (tileRows_ * sizeof(float) + 31) / 32 * 32);
    }
    __aicore__ inline void Process() {
        for (uint32_t r0 = 0; r0 < rows_; r0 += tileRows_) {
            uint32_t n = rows_ - r0 < tileRows_ ? rows_ - r0 : tileRows_;
            CopyIn(r0, n);
            Compute(n);
            CopyOut(r0, n);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t r0, uint32_t n) {
        LocalTensor<float> x = inQ.AllocTensor<float>();
        DataCopyPad(x, xGm[(uint64_t)r0 * cols_], DataCopyExtParams{(uint16_t)n, cols_ * (uint32_t)sizeof(float), 0, 0, 0},
                    DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        inQ.EnQue(x);
    }
    __aicore__ inline void Compute(uint32_t n) {
        LocalTensor<float> x = inQ.DeQue<float>();
        LocalTensor<float> y = outQ.AllocTensor<float>();
        const uint8_t rowBlocks = (uint8_t)(pitch_ / 8);  // repeat stride: one row, in 32-byte blocks
        const BinaryRepeatParams oneRowPerRepeat(1, 1, 1, rowBlocks, rowBlocks, rowBlocks);
        for (uint32_t c = 64; c < cols_; c += 64) {  // x[r][0..w) += x[r][c..c+w) for every row r
            const uint64_t w = cols_ - c < 64 ? cols_ - c : 64;
            Add(x, x, x[c], w, (int32_t)n, oneRowPerRepeat);
        }
        const int32_t lanes = cols_ < 64 ? (int32_t)cols_ : 64;
        WholeReduceSum(y, x, lanes, (int32_t)n, 1, 1, rowBlocks);  // y[r] = sum of row r's first lanes
        outQ.EnQue(y);
        inQ.FreeTensor(x);
    }
    __aicore__ inline void CopyOut(uint32_t r0, uint32_t n) {
        LocalTensor<float> y = outQ.DeQue<float>();
        DataCopyPad(yGm[r0], y, DataCopyExtParams{1, n * (uint32_t)sizeof(float), 0, 0, 0});
        outQ.FreeTensor(y);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> outQ;
    GlobalTensor<float> xGm, yGm;
    uint32_t rows_ = 0, cols_ = 0, pitch_ = 0, tileRows_ = 0;
};

extern "C" __global__ __aicore__ void row_sum_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(RowSumTiling, t, tiling);
    KernelRowSum op;
    op.Init(x, y, t);
    op.Process();
}

SAGE_HOST(ctx) {
    RowSumTiling t{(uint32_t)ctx.shape("x", 0), (uint32_t)ctx.shape("x", 1)};
    ICPU_RUN_KF(row_sum_kernel, BLOCK_DIM, ctx.gm("x"), ctx.gm("y"), ctx.tiling(t));
}
