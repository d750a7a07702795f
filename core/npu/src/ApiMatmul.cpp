// The high-level Matmul library (lib/matmul_intf.h) on the cube unit: one base block of C per
// call. The library's own pipeline (GM -> L1 on MTE2, L1 -> L0A/L0B on MTE1, Mmad on M, L0C ->
// GM or UB on FIX) is charged with the same rates as the basic cube API, each stage waiting for
// the previous one as the library's internal flags make it; the call returns when C is written,
// as the synchronous IterateAll/GetTensorC do. See docs/kernel-api.md (Matmul).
#include "SimImpl.h"
#include "VectorMath.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace sage::npu {
namespace {

using rt::MatmulBlock;
using rt::MatmulOperand;

uint64_t ceilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// Element offset of stored (row, col) in an operand.
uint64_t storedIndex(const MatmulOperand& o, uint64_t row, uint64_t col, uint32_t c0) {
    if (!o.nz) return row * o.ld + col;
    return (col / c0) * o.ld * c0 + row * c0 + col % c0;
}

// Bytes from the operand's start to one past the last element of the stored rows x cols region.
uint64_t storedExtent(const MatmulOperand& o, uint64_t rows, uint64_t cols, uint32_t c0, uint32_t es) {
    if (rows == 0 || cols == 0) return 0;
    return (storedIndex(o, rows - 1, cols - 1, c0) + 1) * es;
}

struct OperandReader {
    const MatmulOperand& o;
    const uint8_t* base;
    DType t;
    uint32_t c0;
    // Logical element (r, c) of the operand (A: r = m, c = k; B: r = k, c = n).
    double at(uint64_t r, uint64_t c) const {
        uint64_t idx = o.trans ? storedIndex(o, c, r, c0) : storedIndex(o, r, c, c0);
        return vecmath::loadScalar(t, base + idx * dtypeSize(t));
    }
};

const uint8_t* operandBase(Simulation::Impl& s, const MatmulOperand& o, uint64_t bytes, const char* what,
                           const Loc& loc) {
    if (o.isLocal) {
        s.checkLocal(o.local, bytes, what, loc);
        s.scalarAccess(o.local, 0, uint32_t(std::max<uint64_t>(bytes, 1)), false, loc);
        return s.ctx().localPtr(o.local);
    }
    if (!o.gm.ptr) s.report("matmul_operand_missing", std::string(what) + " was not set: call SetTensorA/SetTensorB "
                                                                          "before Iterate/IterateAll.",
                            loc, true);
    s.checkGm(o.gm.ptr, o.gm.limit, bytes, what, loc);
    return o.gm.ptr;
}

} // namespace

namespace rt {

void matmulBlock(const MatmulBlock& blk, Loc loc) {
    auto& s = activeImpl();
    CoreContext& c = s.ctx();
    s.usedCube = true;
    const uint32_t es = dtypeSize(blk.abType), c0 = 32 / es;
    const uint64_t M = blk.mSize, N = blk.nSize, K = blk.kSize;
    if (M == 0 || N == 0) return s.scalarCost(s.prof.scalarIssueCycles, loc);
    // Operand extents relative to the operand's start (the block origin is folded in below).
    const uint64_t aRows = blk.a.trans ? K : blk.m0 + M, aCols = blk.a.trans ? blk.m0 + M : K;
    const uint64_t bRows = blk.b.trans ? blk.n0 + N : K, bCols = blk.b.trans ? K : blk.n0 + N;
    const uint8_t* A = operandBase(s, blk.a, storedExtent(blk.a, aRows, aCols, c0, es), "Matmul A (SetTensorA)", loc);
    const uint8_t* B = operandBase(s, blk.b, storedExtent(blk.b, bRows, bCols, c0, es), "Matmul B (SetTensorB)", loc);
    const uint8_t* bias = nullptr;
    if (blk.hasBias)
        bias = operandBase(s, blk.bias, (blk.n0 + N) * dtypeSize(blk.biasType), "Matmul bias (SetBias)", loc);

    // Timing: the A and B panels of this block through MTE2 and MTE1, the fractals on M, C out on FIX.
    const uint64_t inBytes = (M * K + K * N) * es;
    IssueResult ld = s.issue(PipeId::MTE2, "Matmul GM->L1", s.prof.dmaIssueCycles, c.gmReadLatency,
                             std::max<uint64_t>(1, uint64_t(std::ceil(double(inBytes) / c.gmL1Bpc))), inBytes, 0, loc);
    s.launch->gmBytesRead += blk.a.isLocal ? K * N * es : inBytes;
    auto after = [&](PipeId p, uint64_t t) { c.pipes[size_t(p)].barrier = std::max(c.pipes[size_t(p)].barrier, t); };
    after(PipeId::MTE1, ld.done);
    const double l1Cycles = double(M * K * es) / s.prof.l1ToL0aBytesPerCycle + double(K * N * es) / s.prof.l1ToL0bBytesPerCycle;
    IssueResult l1 = s.issue(PipeId::MTE1, "Matmul L1->L0", s.prof.dmaIssueCycles + uint64_t(std::ceil(l1Cycles)), 0, 0,
                             inBytes, 0, loc);
    after(PipeId::M, l1.done);
    const uint64_t fractals = ceilDiv(M, 16) * ceilDiv(N, 16) * ceilDiv(K, c0);
    s.launch->cubeFractals += fractals;
    IssueResult mm = s.issue(PipeId::M, "Matmul Mmad",
                             s.prof.mmadOverheadCycles + uint64_t(std::ceil(double(fractals) * s.prof.cubeCyclesPerFractal)),
                             0, 0, 0, uint32_t(fractals), loc);
    after(PipeId::FIX, mm.done);
    const uint32_t ces = dtypeSize(blk.cType);
    const uint64_t outBytes = M * N * ces;
    IssueResult out = s.issue(PipeId::FIX, blk.dstIsLocal ? "Matmul L0C->UB" : "Matmul L0C->GM", s.prof.dmaIssueCycles,
                              blk.dstIsLocal ? 0 : c.gmWriteLatency,
                              blk.dstIsLocal ? 0 : std::max<uint64_t>(1, uint64_t(std::ceil(double(outBytes) / c.l0cGmBpc))),
                              outBytes, 0, loc);

    // Destination layout and bounds.
    auto dstIndex = [&](uint64_t m, uint64_t n) -> uint64_t {
        if (blk.dstIsLocal && blk.dstNz) return (n / 16) * ceilDiv(M, 16) * 16 * 16 + m * 16 + n % 16;
        if (blk.dstIsLocal || blk.sequential) return m * blk.ldc + n;
        return (blk.m0 + m) * blk.ldc + blk.n0 + n;
    };
    const uint64_t dstExtent = (dstIndex(M - 1, N - 1) + 1) * ces;
    uint8_t* D;
    if (blk.dstIsLocal) {
        s.checkLocal(blk.dstLocal, dstExtent, "Matmul GetTensorC (local)", loc);
        D = c.localPtr(blk.dstLocal);
    } else {
        s.checkGm(blk.dstGm.ptr, blk.dstGm.limit, dstExtent, "Matmul IterateAll/GetTensorC", loc);
        D = blk.dstGm.ptr;
        s.launch->gmBytesWritten += outBytes;
    }

    // Functional result, accumulated in double (exact for int8 x int8, and within fp32's own
    // rounding for the float types, which the cube accumulates in fp32).
    OperandReader ra{blk.a, A, blk.abType, c0}, rb{blk.b, B, blk.abType, c0};
    std::vector<double> a(M * K), b(K * N);
    for (uint64_t m = 0; m < M; ++m)
        for (uint64_t k = 0; k < K; ++k) a[m * K + k] = ra.at(blk.m0 + m, k);
    for (uint64_t k = 0; k < K; ++k)
        for (uint64_t n = 0; n < N; ++n) b[k * N + n] = rb.at(k, blk.n0 + n);
    const bool floatAcc = blk.abType != DType::I8;
    for (uint64_t m = 0; m < M; ++m)
        for (uint64_t n = 0; n < N; ++n) {
            double acc = 0;
            for (uint64_t k = 0; k < K; ++k) acc += a[m * K + k] * b[k * N + n];
            if (floatAcc) acc = double(float(acc));
            if (bias) acc += vecmath::loadScalar(blk.biasType, bias + (blk.n0 + n) * dtypeSize(blk.biasType));
            if (blk.quant) {
                float scale = blk.quantScale;
                if (blk.quantVector) {
                    uint32_t bits = uint32_t(blk.quantVector[blk.n0 + n]);
                    std::memcpy(&scale, &bits, 4);
                }
                acc *= scale;
            }
            uint8_t* dst = D + dstIndex(m, n) * ces;
            if (blk.atomic && !blk.dstIsLocal) {
                uint8_t tmp[8];
                vecmath::storeScalar(blk.cType, tmp, acc);
                vecmath::accumulate(blk.cType, dst, tmp, 1, 1);
            } else {
                vecmath::storeScalar(blk.cType, dst, acc);
            }
            if (!blk.dstIsLocal) s.gmWrites.recordWrite(dst, ces);
        }
    if (blk.dstIsLocal) s.access(PipeId::FIX, blk.dstLocal, uint32_t(dstExtent), true, out, loc);
    // Synchronous: the caller continues once C is written.
    if (out.done > c.scalarTime) {
        s.closeScalarSegment();
        c.scalarTime = out.done;
    }
    joinInto(c.clock[size_t(PipeId::S)], c.clock[size_t(PipeId::FIX)]);
}

} // namespace rt
} // namespace sage::npu
