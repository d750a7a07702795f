// gemm_bias_relu, tuned: Y = relu(A x B + bias) in ONE cube launch. The bias enters through the
// bias table (GM -> C1 -> C2, Mmad with bias on the first K step) and the ReLU is applied by
// Fixpipe on the way out (reluEn), so C never makes a round trip through GM. Levers: fusion,
// cube tiling (128 x 128 x 64 base tiles), double buffering, 24 cube cores.
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t BASE_M = 128;    // @tunable base_m {16, 32, 64, 128}
constexpr uint32_t BASE_N = 128;    // @tunable base_n {16, 32, 64, 128}
constexpr uint32_t BASE_K = 64;    // @tunable base_k {16, 32, 64, 128}
constexpr int32_t BUFFER_NUM = 2;  // @tunable buffer_num {1, 2}
constexpr uint32_t BLOCK_DIM = 24;  // @tunable block_dim {1, 2, 4, 8, 12, 16, 24}

struct GemmBiasReluTiling {
    uint32_t M, K, N;
};

__aicore__ inline uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
__aicore__ inline uint32_t Align16(uint32_t a) { return (a + 15) / 16 * 16; }

class KernelGemmBiasRelu {
public:
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, const GemmBiasReluTiling& t) {
        M_ = t.M;
        K_ = t.K;
        N_ = t.N;
        aGm.SetGlobalBuffer((__gm__ half*)a, (uint64_t)M_ * K_);
        bGm.SetGlobalBuffer((__gm__ half*)b, (uint64_t)K_ * N_);
        biasGm.SetGlobalBuffer((__gm__ float*)bias, N_);
        cGm.SetGlobalBuffer((__gm__ float*)c, (uint64_t)M_ * N_);
        pipe.InitBuffer(qA1, BUFFER_NUM, BASE_M * BASE_K * sizeof(half));
        pipe.InitBuffer(qB1, BUFFER_NUM, BASE_K * BASE_N * sizeof(half));
        pipe.InitBuffer(qA2, BUFFER_NUM, BASE_M * BASE_K * sizeof(half));
        pipe.InitBuffer(qB2, BUFFER_NUM, BASE_K * BASE_N * sizeof(half));
        pipe.InitBuffer(qC, BUFFER_NUM, BASE_M * BASE_N * sizeof(float));
        pipe.InitBuffer(biasL1, BASE_N * sizeof(float));
        pipe.InitBuffer(biasTable, BASE_N * sizeof(float));
    }
    __aicore__ inline void Process() {
        const uint32_t mTiles = CeilDiv(M_, BASE_M), nTiles = CeilDiv(N_, BASE_N);
        // Output tiles are dealt to the blocks round-robin.
        for (uint32_t tile = GetBlockIdx(); tile < mTiles * nTiles; tile += GetBlockNum()) {
            const uint32_t m0 = tile / nTiles * BASE_M, n0 = tile % nTiles * BASE_N;
            const uint32_t mLen = M_ - m0 < BASE_M ? M_ - m0 : BASE_M;
            const uint32_t nLen = N_ - n0 < BASE_N ? N_ - n0 : BASE_N;
            LocalTensor<float> bt = LoadBias(n0, nLen);
            LocalTensor<float> c = qC.AllocTensor<float>();
            for (uint32_t k0 = 0; k0 < K_; k0 += BASE_K) {
                const uint32_t kLen = K_ - k0 < BASE_K ? K_ - k0 : BASE_K;
                CopyIn(m0, n0, k0, mLen, nLen, kLen);
                SplitLoad(mLen, nLen, kLen);
                Compute(c, bt, mLen, nLen, kLen, k0 == 0);
            }
            qC.EnQue(c);
            CopyOut(m0, n0, mLen, nLen);
        }
    }

private:
    // GM (row-major) -> L1 in NZ layout: column blocks of 16 halfs, rows padded to 16.
    __aicore__ inline void CopyIn(uint32_t m0, uint32_t n0, uint32_t k0, uint32_t mLen, uint32_t nLen, uint32_t kLen) {
        LocalTensor<half> a1 = qA1.AllocTensor<half>();
        LocalTensor<half> b1 = qB1.AllocTensor<half>();
        DataCopy(a1, aGm[(uint64_t)m0 * K_ + k0], Nd2NzParams(1, mLen, kLen, 0, K_, Align16(mLen), 1, 0));
        DataCopy(b1, bGm[(uint64_t)k0 * N_ + n0], Nd2NzParams(1, kLen, nLen, 0, N_, Align16(kLen), 1, 0));
        qA1.EnQue(a1);
        qB1.EnQue(b1);
    }
    // L1 -> L0A (16x16 fractals, row-block major) and L0B (k-block major, each fractal transposed).
    __aicore__ inline void SplitLoad(uint32_t mLen, uint32_t nLen, uint32_t kLen) {
        const uint16_t mBlocks = Align16(mLen) / 16, nBlocks = Align16(nLen) / 16, kBlocks = Align16(kLen) / 16;
        LocalTensor<half> a1 = qA1.DeQue<half>();
        LocalTensor<half> b1 = qB1.DeQue<half>();
        LocalTensor<half> a2 = qA2.AllocTensor<half>();
        LocalTensor<half> b2 = qB2.AllocTensor<half>();
        for (uint16_t i = 0; i < mBlocks; ++i)
            LoadData(a2[i * kBlocks * 256], a1, LoadData2DParams(i, (uint8_t)kBlocks, mBlocks, 0, 0, false, 0));
        for (uint16_t kb = 0; kb < kBlocks; ++kb)
            LoadData(b2[kb * nBlocks * 256], b1, LoadData2DParams(kb, (uint8_t)nBlocks, kBlocks, 0, 0, true, 0));
        qA2.EnQue(a2);
        qB2.EnQue(b2);
        qA1.FreeTensor(a1);
        qB1.FreeTensor(b1);
    }
    // bias[n0 .. n0 + nLen) -> L1 (C1) -> bias table (C2), once per output tile. The two plain
    // buffers are ordered with full barriers: the first makes the L1 copy visible to the
    // C1 -> C2 copy, the second makes the bias table visible to Mmad. They also keep the next
    // tile's bias from overwriting buffers that earlier instructions still read.
    __aicore__ inline LocalTensor<float> LoadBias(uint32_t n0, uint32_t nLen) {
        LocalTensor<float> b1 = biasL1.Get<float>();
        LocalTensor<float> bt = biasTable.Get<float>();
        DataCopyPad(b1, biasGm[n0], DataCopyExtParams{1, nLen * (uint32_t)sizeof(float), 0, 0, 0},
                    DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        PipeBarrier<PIPE_ALL>();
        DataCopy(bt, b1, Align16(nLen));
        PipeBarrier<PIPE_ALL>();
        return bt;
    }
    __aicore__ inline void Compute(LocalTensor<float>& c, LocalTensor<float>& bt, uint32_t mLen, uint32_t nLen, uint32_t kLen, bool first) {
        LocalTensor<half> a2 = qA2.DeQue<half>();
        LocalTensor<half> b2 = qB2.DeQue<half>();
        MmadParams p;
        p.m = (uint16_t)mLen;
        p.n = (uint16_t)nLen;
        p.k = (uint16_t)kLen;
        p.cmatrixInitVal = false;           // never start from zero: from the bias table, then from C
        if (first) Mmad(c, a2, b2, bt, p);  // C = bias + A x B
        else Mmad(c, a2, b2, p);            // C += A x B
        qA2.FreeTensor(a2);
        qB2.FreeTensor(b2);
    }
    __aicore__ inline void CopyOut(uint32_t m0, uint32_t n0, uint32_t mLen, uint32_t nLen) {
        LocalTensor<float> c = qC.DeQue<float>();
        FixpipeParamsV220 fp;
        fp.nSize = (uint16_t)nLen;
        fp.mSize = (uint16_t)mLen;
        fp.srcStride = Align16(mLen);
        fp.dstStride = N_;
        fp.reluEn = true;  // ReLU on the way out
        Fixpipe(cGm[(uint64_t)m0 * N_ + n0], c, fp);
        qC.FreeTensor(c);
    }

    TPipe pipe;
    TQue<TPosition::A1, 1> qA1;
    TQue<TPosition::B1, 1> qB1;
    TQue<TPosition::A2, 1> qA2;
    TQue<TPosition::B2, 1> qB2;
    TQue<TPosition::CO1, 1> qC;
    TBuf<TPosition::C1> biasL1;
    TBuf<TPosition::C2> biasTable;
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> biasGm, cGm;
    uint32_t M_ = 0, K_ = 0, N_ = 0;
};

extern "C" __global__ __aicore__ void gemm_bias_relu_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tiling) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    GET_TILING_DATA_WITH_STRUCT(GemmBiasReluTiling, t, tiling);
    KernelGemmBiasRelu op;
    op.Init(a, b, bias, c, t);
    op.Process();
}

SAGE_HOST(ctx) {
    GemmBiasReluTiling t{(uint32_t)ctx.dim("M"), (uint32_t)ctx.dim("K"), (uint32_t)ctx.dim("N")};
    ICPU_RUN_KF(gemm_bias_relu_kernel, BLOCK_DIM, ctx.gm("a"), ctx.gm("b"), ctx.gm("bias"), ctx.gm("y"), ctx.tiling(t));
}
