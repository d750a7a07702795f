// y[r] = sum over c of x[r][c] for a float matrix of R rows and C columns, any R and C
// (docs/kernel-api.md, example 2). Each block takes a range of rows; a tile of rows is loaded
// with DataCopyPad (each row padded to 32 bytes in UB), columns 64.. are folded onto the first
// 64 with repeat-form Adds (one repeat per row), and WholeReduceSum reduces each row.
#include "kernel_operator.h"
using namespace AscendC;

struct RowSumTiling {
    uint32_t rows, cols;
    uint32_t rowsPerBlock;  // rows handled by one block
    uint32_t rowsPerTile;   // rows per UB tile (<= 255: one vector repeat per row)
};

class KernelRowSum {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const RowSumTiling& t)
    {
        t_ = t;
        pitch_ = (t.cols + 7) / 8 * 8;  // UB row pitch in floats (32-byte aligned)
        ASSERT(pitch_ / 8 <= 255 && "repeat strides are 8-bit: rows of more than 2040 floats need ReduceSum per row");
        const uint32_t first = t.rowsPerBlock * GetBlockIdx();
        const uint32_t last = first + t.rowsPerBlock < t.rows ? first + t.rowsPerBlock : t.rows;
        myRows_ = first < last ? last - first : 0;
        xGm.SetGlobalBuffer((__gm__ float*)x + uint64_t(first) * t.cols, uint64_t(myRows_) * t.cols);
        yGm.SetGlobalBuffer((__gm__ float*)y + first, myRows_);
        pipe.InitBuffer(inQ, 2, t.rowsPerTile * pitch_ * sizeof(float));
        pipe.InitBuffer(outQ, 2, t.rowsPerTile * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t r0 = 0; r0 < myRows_; r0 += t_.rowsPerTile) {
            const uint32_t rows = myRows_ - r0 < t_.rowsPerTile ? myRows_ - r0 : t_.rowsPerTile;
            CopyIn(r0, rows);
            Compute(rows);
            CopyOut(r0, rows);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t r0, uint32_t rows)
    {
        LocalTensor<float> x = inQ.AllocTensor<float>();
        // rows blocks of cols * 4 bytes, back to back in GM; in UB each row starts at r * pitch_.
        DataCopyPad(x, xGm[uint64_t(r0) * t_.cols], DataCopyExtParams{uint16_t(rows), t_.cols * 4, 0, 0, 0},
                    DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        inQ.EnQue(x);
    }
    __aicore__ inline void Compute(uint32_t rows)
    {
        LocalTensor<float> x = inQ.DeQue<float>();
        LocalTensor<float> y = outQ.AllocTensor<float>();
        const uint8_t rowBlocks = uint8_t(pitch_ / 8);  // repeat stride: one row, in 32-byte blocks
        const BinaryRepeatParams oneRowPerRepeat(1, 1, 1, rowBlocks, rowBlocks, rowBlocks);
        for (uint32_t c = 64; c < t_.cols; c += 64) {  // x[r][0..w) += x[r][c..c+w)
            const uint64_t w = t_.cols - c < 64 ? t_.cols - c : 64;
            Add(x, x, x[c], w, int32_t(rows), oneRowPerRepeat);
        }
        const int32_t lanes = t_.cols < 64 ? int32_t(t_.cols) : 64;
        WholeReduceSum(y, x, lanes, int32_t(rows), 1, 1, rowBlocks);  // y[r] = sum of row r's lanes
        outQ.EnQue(y);
        inQ.FreeTensor(x);
    }
    __aicore__ inline void CopyOut(uint32_t r0, uint32_t rows)
    {
        LocalTensor<float> y = outQ.DeQue<float>();
        DataCopyPad(yGm[r0], y, DataCopyExtParams{1, rows * 4, 0, 0, 0});
        outQ.FreeTensor(y);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> outQ;
    GlobalTensor<float> xGm, yGm;
    RowSumTiling t_;
    uint32_t pitch_ = 0, myRows_ = 0;
};

extern "C" __global__ __aicore__ void row_sum_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(RowSumTiling, t, tiling);
    KernelRowSum op;
    op.Init(x, y, t);
    op.Process();
}

SAGE_HOST(ctx)
{
    RowSumTiling t{};
    t.rows = uint32_t(ctx.shape("x", 0));
    t.cols = uint32_t(ctx.shape("x", 1));
    const uint32_t blockDim = t.rows == 0 ? 1 : (t.rows < 16 ? t.rows : 16);
    t.rowsPerBlock = (t.rows + blockDim - 1) / blockDim;
    // Two input buffers of rowsPerTile rows must fit in about 160 KB of UB.
    const uint32_t pitchBytes = (t.cols + 7) / 8 * 32;
    uint32_t fit = 160u * 1024u / (2u * pitchBytes);  // 0 for rows over 80 KB: InitBuffer then reports it
    t.rowsPerTile = fit == 0 ? 1 : (fit < 255 ? fit : 255);
    if (t.rowsPerTile > t.rowsPerBlock) t.rowsPerTile = t.rowsPerBlock;
    ICPU_RUN_KF(row_sum_kernel, blockDim, ctx.gm("x"), ctx.gm("y"), ctx.tiling(t));
}
