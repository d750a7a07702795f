// A small fp16 GEMM on the cube path for test_npu_api:
//   GM (ND, row-major) --DataCopy(Nd2NzParams)--> A1/B1 (NZ) --LoadData--> A2/B2 --Mmad--> CO1
//   --Fixpipe--> GM (ND, float or half).
// C[M x N] = A[M x K] * B[K x N]. With kSplit = 2 the product is accumulated in CO1 over the two
// K halves (cmatrixInitVal = false for the second Mmad).
#include "kernel_operator.h"

using namespace AscendC;

struct GemmShape {
    uint16_t M, K, N;
    uint16_t kSplit;  // 1 or 2 (K / 16 must be divisible by kSplit)
    bool halfOut;     // Fixpipe with F322F16 into a half C
};

extern "C" __global__ __aicore__ void gemm_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR c, GemmShape s)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    const uint16_t mBlocks = (s.M + 15) / 16, kBlocks = (s.K + 15) / 16, nBlocks = (s.N + 15) / 16;
    const uint16_t mAligned = mBlocks * 16, kAligned = kBlocks * 16;
    const uint16_t kbPart = kBlocks / s.kSplit;  // k blocks per Mmad

    TPipe pipe;
    TQue<TPosition::A1, 1> qA1;
    TQue<TPosition::B1, 1> qB1;
    TQue<TPosition::A2, 1> qA2;
    TQue<TPosition::B2, 1> qB2;
    TQue<TPosition::CO1, 1> qC;
    pipe.InitBuffer(qA1, 1, mAligned * kAligned * sizeof(half));
    pipe.InitBuffer(qB1, 1, kAligned * nBlocks * 16 * sizeof(half));
    pipe.InitBuffer(qA2, 1, mBlocks * kbPart * 512);
    pipe.InitBuffer(qB2, 1, kbPart * nBlocks * 512);
    pipe.InitBuffer(qC, 1, mBlocks * nBlocks * 256 * sizeof(float));

    GlobalTensor<half> aGm, bGm;
    aGm.SetGlobalBuffer((__gm__ half*)a, s.M * s.K);
    bGm.SetGlobalBuffer((__gm__ half*)b, s.K * s.N);

    // GM -> L1: each matrix in NZ layout, column blocks of 16 halfs, rows padded to 16.
    LocalTensor<half> a1 = qA1.AllocTensor<half>();
    LocalTensor<half> b1 = qB1.AllocTensor<half>();
    DataCopy(a1, aGm, Nd2NzParams(1, s.M, s.K, 0, s.K, mAligned, 1, 0));
    DataCopy(b1, bGm, Nd2NzParams(1, s.K, s.N, 0, s.N, kAligned, 1, 0));
    qA1.EnQue(a1);
    qB1.EnQue(b1);
    LocalTensor<half> A1 = qA1.DeQue<half>();
    LocalTensor<half> B1 = qB1.DeQue<half>();

    LocalTensor<float> co1 = qC.AllocTensor<float>();
    for (uint16_t part = 0; part < s.kSplit; ++part) {
        const uint16_t kb0 = part * kbPart;
        // L1 -> L0A: for each 16-row block i, the kbPart fractals (i, kb0..) side by side.
        LocalTensor<half> a2 = qA2.AllocTensor<half>();
        for (uint16_t i = 0; i < mBlocks; ++i) {
            LoadData2DParams p;
            p.startIndex = uint16_t(i + kb0 * mBlocks);
            p.repeatTimes = uint8_t(kbPart);
            p.srcStride = mBlocks;
            p.ifTranspose = false;
            LoadData(a2[i * kbPart * 256], A1, p);
        }
        // L1 -> L0B: for each k block, its nBlocks fractals, each transposed.
        LocalTensor<half> b2 = qB2.AllocTensor<half>();
        for (uint16_t kb = 0; kb < kbPart; ++kb) {
            LoadData2DParams p;
            p.startIndex = uint16_t(kb0 + kb);
            p.repeatTimes = uint8_t(nBlocks);
            p.srcStride = kBlocks;
            p.ifTranspose = true;
            LoadData(b2[kb * nBlocks * 256], B1, p);
        }
        qA2.EnQue(a2);
        qB2.EnQue(b2);
        LocalTensor<half> A2 = qA2.DeQue<half>();
        LocalTensor<half> B2 = qB2.DeQue<half>();
        MmadParams mp;
        mp.m = s.M;
        mp.n = s.N;
        mp.k = uint16_t(s.kSplit == 1 ? s.K : kbPart * 16);
        mp.cmatrixInitVal = part == 0;
        Mmad(co1, A2, B2, mp);
        qA2.FreeTensor(A2);
        qB2.FreeTensor(B2);
    }
    qA1.FreeTensor(A1);
    qB1.FreeTensor(B1);
    qC.EnQue(co1);
    LocalTensor<float> C = qC.DeQue<float>();

    FixpipeParamsV220 fp;
    fp.nSize = s.N;
    fp.mSize = s.M;
    fp.srcStride = mAligned;
    fp.dstStride = s.N;
    if (s.halfOut) {
        fp.quantPre = QuantMode_t::F322F16;
        GlobalTensor<half> cGm;
        cGm.SetGlobalBuffer((__gm__ half*)c, s.M * s.N);
        Fixpipe(cGm, C, fp);
    } else {
        GlobalTensor<float> cGm;
        cGm.SetGlobalBuffer((__gm__ float*)c, s.M * s.N);
        Fixpipe(cGm, C, fp);
    }
    qC.FreeTensor(C);
}
