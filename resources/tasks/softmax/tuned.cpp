// softmax over the last axis, float32 [M, N].
// Tuned: the row statistics of a whole tile come from a few repeat-form instructions (one repeat
// per row) instead of a ReduceMax/ReduceSum + GetValue pair per row: the rows are folded onto 64
// lanes with repeat-form Max/Add, then WholeReduceMax/WholeReduceSum give one value per row, so
// the scalar unit waits for the vector pipe twice per tile instead of twice per row. Exp runs once
// over the whole tile. Also 32 blocks, double buffering and multi-row tiles. Rows are copied with
// DataCopyPad (each row padded to 32 bytes in UB), so any N works (N <= 2040: the row pitch is a
// repeat stride of at most 255 blocks).
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t ROWS_PER_TILE = 8;   // @tunable rows_per_tile {1, 2, 4, 8, 16, 32}
constexpr int32_t BUFFER_NUM = 2;       // @tunable buffer_num {1, 2}
constexpr uint32_t BLOCK_DIM = 32;      // @tunable block_dim {1, 2, 4, 8, 16, 24, 32, 48}
constexpr uint32_t MAX_TILE_BYTES = 32 * 1024;  // per buffer; rows per tile shrink to fit

struct SoftmaxTiling {
    uint32_t rows;  // M
    uint32_t cols;  // N
};

class KernelSoftmax {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const SoftmaxTiling& t) {
        cols_ = t.cols;
        pitch_ = (t.cols + 7) / 8 * 8;  // UB row pitch in floats (32-byte aligned)
        ASSERT(pitch_ / 8 <= 255 && "rows longer than 2040 floats need a different repeat layout");
        tileRows_ = MAX_TILE_BYTES / (pitch_ * (uint32_t)sizeof(float));
        if (tileRows_ > ROWS_PER_TILE) tileRows_ = ROWS_PER_TILE;
        if (tileRows_ < 1) tileRows_ = 1;
        lanes_ = cols_ < 64 ? cols_ : 64;
        // Split the rows across blocks; the last block takes the remainder.
        uint32_t rowsPerBlock = (t.rows + GetBlockNum() - 1) / GetBlockNum();
        uint32_t first = rowsPerBlock * GetBlockIdx();
        if (first > t.rows) first = t.rows;
        uint32_t last = first + rowsPerBlock < t.rows ? first + rowsPerBlock : t.rows;
        rows_ = last - first;
        xGm.SetGlobalBuffer((__gm__ float*)x + (uint64_t)first * cols_, (uint64_t)rows_ * cols_);
        yGm.SetGlobalBuffer((__gm__ float*)y + (uint64_t)first * cols_, (uint64_t)rows_ * cols_);
        pipe.InitBuffer(inQ, BUFFER_NUM, tileRows_ * pitch_ * sizeof(float));
        pipe.InitBuffer(outQ, BUFFER_NUM, tileRows_ * pitch_ * sizeof(float));
        pipe.InitBuffer(foldBuf, tileRows_ * 64 * sizeof(float));  // 64 lanes per row
        pipe.InitBuffer(statBuf, (tileRows_ * sizeof(float) + 31) / 32 * 32);
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
    // fold[r][0..64) = src[r][0..64) combined (max or sum) with src[r][64 k + j] for every k;
    // then stat[r] = the combination of fold[r]'s lanes. One repeat per row for every step.
    __aicore__ inline void RowStats(const LocalTensor<float>& stat, const LocalTensor<float>& src, uint32_t n, bool max) {
        LocalTensor<float> fold = foldBuf.Get<float>();
        const uint8_t rowBlocks = (uint8_t)(pitch_ / 8);
        Adds(fold, src, 0.0f, lanes_, (int32_t)n, UnaryRepeatParams(1, 1, 8, rowBlocks));
        const BinaryRepeatParams p(1, 1, 1, 8, 8, rowBlocks);
        for (uint32_t c = 64; c < cols_; c += 64) {
            const uint64_t w = cols_ - c < 64 ? cols_ - c : 64;
            if (max) Max(fold, fold, src[c], w, (int32_t)n, p);
            else Add(fold, fold, src[c], w, (int32_t)n, p);
        }
        if (max) WholeReduceMax(stat, fold, (int32_t)lanes_, (int32_t)n, 1, 1, 8, ReduceOrder::ORDER_ONLY_VALUE);
        else WholeReduceSum(stat, fold, (int32_t)lanes_, (int32_t)n, 1, 1, 8);
    }
    __aicore__ inline void Compute(uint32_t n) {
        LocalTensor<float> x = inQ.DeQue<float>();
        LocalTensor<float> y = outQ.AllocTensor<float>();
        LocalTensor<float> stat = statBuf.Get<float>();
        RowStats(stat, x, n, true);
        for (uint32_t r = 0; r < n; ++r) Adds(y[r * pitch_], x[r * pitch_], -stat.GetValue(r), cols_);
        Exp(y, y, n * pitch_);  // the whole tile at once (the padding lanes are never read back)
        RowStats(stat, y, n, false);
        for (uint32_t r = 0; r < n; ++r) Muls(y[r * pitch_], y[r * pitch_], 1.0f / stat.GetValue(r), cols_);
        outQ.EnQue(y);
        inQ.FreeTensor(x);
    }
    __aicore__ inline void CopyOut(uint32_t r0, uint32_t n) {
        LocalTensor<float> y = outQ.DeQue<float>();
        DataCopyPad(yGm[(uint64_t)r0 * cols_], y, DataCopyExtParams{(uint16_t)n, cols_ * (uint32_t)sizeof(float), 0, 0, 0});
        outQ.FreeTensor(y);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> foldBuf, statBuf;
    GlobalTensor<float> xGm, yGm;
    uint32_t rows_ = 0, cols_ = 0, pitch_ = 0, tileRows_ = 0, lanes_ = 0;
};

extern "C" __global__ __aicore__ void softmax_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(SoftmaxTiling, t, tiling);
    KernelSoftmax op;
    op.Init(x, y, t);
    op.Process();
}

SAGE_HOST(ctx) {
    SoftmaxTiling t{(uint32_t)ctx.shape("x", 0), (uint32_t)ctx.shape("x", 1)};
    ICPU_RUN_KF(softmax_kernel, BLOCK_DIM, ctx.gm("x"), ctx.gm("y"), ctx.tiling(t));
}
