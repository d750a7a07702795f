// z = x + y over a fixed 16384-element fp16 vector, written the way an engineer writes a first
// kernel before it has a host tiling: every size is a compile-time constant, the launch uses
// 8 blocks of 2048 elements, and each block streams its share in 4 chunks through two-deep
// queues so that the load of chunk c+1 overlaps the add of chunk c.
#include "kernel_operator.h"

namespace fixed_add {
constexpr uint32_t kElems = 16384;
constexpr uint32_t kBlocks = 8;
constexpr uint32_t kPerBlock = kElems / kBlocks;  // 2048 halfs per block
constexpr uint32_t kChunks = 4;
constexpr uint32_t kChunk = kPerBlock / kChunks;  // 512 halfs = 1 KiB per buffer
constexpr int32_t kDepth = 2;                     // ping-pong buffers per queue
} // namespace fixed_add

class HalfAddFixed {
public:
    __aicore__ inline void Setup(GM_ADDR a, GM_ADDR b, GM_ADDR out)
    {
        const uint32_t base = fixed_add::kPerBlock * AscendC::GetBlockIdx();
        aGm_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a) + base, fixed_add::kPerBlock);
        bGm_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b) + base, fixed_add::kPerBlock);
        outGm_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(out) + base, fixed_add::kPerBlock);
        pipe_.InitBuffer(qa_, fixed_add::kDepth, fixed_add::kChunk * sizeof(half));
        pipe_.InitBuffer(qb_, fixed_add::kDepth, fixed_add::kChunk * sizeof(half));
        pipe_.InitBuffer(qout_, fixed_add::kDepth, fixed_add::kChunk * sizeof(half));
    }
    __aicore__ inline void Run()
    {
        for (uint32_t c = 0; c < fixed_add::kChunks; ++c) {
            Load(c * fixed_add::kChunk);
            Sum();
            Store(c * fixed_add::kChunk);
        }
    }

private:
    __aicore__ inline void Load(uint32_t at)
    {
        auto la = qa_.AllocTensor<half>();
        auto lb = qb_.AllocTensor<half>();
        AscendC::DataCopy(la, aGm_[at], fixed_add::kChunk);
        AscendC::DataCopy(lb, bGm_[at], fixed_add::kChunk);
        qa_.EnQue(la);
        qb_.EnQue(lb);
    }
    __aicore__ inline void Sum()
    {
        auto la = qa_.DeQue<half>();
        auto lb = qb_.DeQue<half>();
        auto lo = qout_.AllocTensor<half>();
        AscendC::Add(lo, la, lb, fixed_add::kChunk);
        qout_.EnQue(lo);
        qa_.FreeTensor(la);
        qb_.FreeTensor(lb);
    }
    __aicore__ inline void Store(uint32_t at)
    {
        auto lo = qout_.DeQue<half>();
        AscendC::DataCopy(outGm_[at], lo, fixed_add::kChunk);
        qout_.FreeTensor(lo);
    }

    AscendC::TPipe pipe_;
    AscendC::TQue<AscendC::TPosition::VECIN, fixed_add::kDepth> qa_, qb_;
    AscendC::TQue<AscendC::TPosition::VECOUT, fixed_add::kDepth> qout_;
    AscendC::GlobalTensor<half> aGm_, bGm_, outGm_;
};

extern "C" __global__ __aicore__ void half_add_fixed(GM_ADDR a, GM_ADDR b, GM_ADDR out)
{
    HalfAddFixed k;
    k.Setup(a, b, out);
    k.Run();
}
