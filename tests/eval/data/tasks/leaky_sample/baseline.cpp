// y = x for x >= 0, slope * x otherwise (0 < slope < 1), written here as max(x, slope * x).
// The host passes its tiling as a struct by value (not through GM); the scaled copy lives in
// a TBuf scratch buffer next to the in/out queues. Each block owns count / blocks elements
// and walks them in `chunk`-sized pieces with two buffers per queue.
#include "kernel_operator.h"
using namespace AscendC;

struct LeakyArgs {
    uint32_t count;  // elements in x (a multiple of blocks * chunk)
    uint32_t chunk;  // elements per UB piece (a multiple of 16)
    float slope;
};

class LeakyByMax {
public:
    __aicore__ inline void Setup(GM_ADDR x, GM_ADDR y, const LeakyArgs& args)
    {
        ASSERT(GetBlockNum() > 0 && args.chunk > 0 && "launch with at least one block and a non-empty chunk");
        share_ = args.count / GetBlockNum();
        chunk_ = args.chunk;
        slope_ = half(args.slope);
        src_.SetGlobalBuffer((__gm__ half*)x + share_ * GetBlockIdx(), share_);
        dst_.SetGlobalBuffer((__gm__ half*)y + share_ * GetBlockIdx(), share_);
        pipe_.InitBuffer(in_, 2, chunk_ * sizeof(half));
        pipe_.InitBuffer(out_, 2, chunk_ * sizeof(half));
        pipe_.InitBuffer(scaled_, chunk_ * sizeof(half));
    }
    __aicore__ inline void Run()
    {
        for (uint32_t at = 0; at < share_; at += chunk_) {
            LocalTensor<half> xs = in_.AllocTensor<half>();
            DataCopy(xs, src_[at], chunk_);
            in_.EnQue(xs);

            xs = in_.DeQue<half>();
            LocalTensor<half> ys = out_.AllocTensor<half>();
            LocalTensor<half> sx = scaled_.Get<half>();
            Muls(sx, xs, slope_, chunk_);
            Max(ys, xs, sx, chunk_);  // the larger of x and slope*x is the leaky value
            in_.FreeTensor(xs);
            out_.EnQue(ys);

            ys = out_.DeQue<half>();
            DataCopy(dst_[at], ys, chunk_);
            out_.FreeTensor(ys);
        }
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> in_;
    TQue<QuePosition::VECOUT, 2> out_;
    TBuf<QuePosition::VECCALC> scaled_;
    GlobalTensor<half> src_, dst_;
    uint32_t share_ = 0, chunk_ = 0;
    half slope_;
};

extern "C" __global__ __aicore__ void leaky_by_max(GM_ADDR x, GM_ADDR y, LeakyArgs args)
{
    LeakyByMax k;
    k.Setup(x, y, args);
    k.Run();
}

SAGE_HOST(ctx) {
    LeakyArgs args{(uint32_t)ctx.numel("x"), 1024, (float)ctx.attr("slope")};
    ICPU_RUN_KF(leaky_by_max, 8, ctx.gm("x"), ctx.gm("y"), args);
}
