// The cube path: Nd2Nz (GM -> L1), LoadData (L1 -> L0A/L0B), Mmad (L0A x L0B -> L0C),
// Fixpipe (L0C -> GM). Layouts are documented in kernel_cube.h and docs/kernel-api.md.
#include "SimImpl.h"
#include "VectorMath.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace sage::npu {
namespace {

uint64_t ceilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

void requirePos(Simulation::Impl& s, const LocalRef& r, std::initializer_list<Pos> allowed, const char* api,
                const char* operand, const Loc& loc) {
    for (Pos p : allowed)
        if (r.pos == p) return;
    std::string names;
    for (Pos p : allowed) names += std::string(names.empty() ? "" : " or ") + posName(p);
    s.report("wrong_position",
             std::string(api) + ": " + operand + " is in " + posName(r.pos) + " but must be in " + names +
                 ". Allocate it from a TQue/TBuf of that position.",
             loc, true);
}

} // namespace

namespace rt {

void copyNd2Nz(const LocalRef& dst, const GmRef& src, const Nd2Nz& p, DType t, Loc loc) {
    auto& s = activeImpl();
    CoreContext& c = s.ctx();
    const char* api = "DataCopy(GM -> L1, Nd2NzParams)";
    requirePos(s, dst, {Pos::A1, Pos::B1, Pos::C1}, api, "the destination", loc);
    uint32_t es = dtypeSize(t), c0 = 32 / es;
    uint64_t srcEnd = 0, dstEnd = 0;
    for (uint32_t nd = 0; nd < p.ndNum; ++nd)
        if (p.nValue && p.dValue) {
            srcEnd = std::max<uint64_t>(srcEnd, uint64_t(nd) * p.srcNdMatrixStride + uint64_t(p.nValue - 1) * p.srcDValue +
                                                    p.dValue);
            uint64_t lastCol = p.dValue - 1;
            dstEnd = std::max<uint64_t>(dstEnd, uint64_t(nd) * p.dstNzMatrixStride +
                                                    (lastCol / c0) * p.dstNzC0Stride * c0 +
                                                    uint64_t(p.nValue - 1) * p.dstNzNStride * c0 + c0);
        }
    s.checkLocal(dst, dstEnd * es, api, loc);
    s.checkGm(src.ptr, src.limit, srcEnd * es, api, loc);
    uint64_t bytes = uint64_t(p.ndNum) * p.nValue * p.dValue * es;
    IssueResult at = s.issue(PipeId::MTE2, "DataCopy GM->L1 (ND2NZ)", s.prof.dmaIssueCycles, c.gmReadLatency,
                             std::max<uint64_t>(1, uint64_t(std::ceil(double(bytes) / c.gmL1Bpc))), bytes, 0, loc);
    uint8_t* d = c.localPtr(dst);
    // Up to c0 consecutive columns of a row land next to each other in one fractal row: one copy each.
    for (uint32_t nd = 0; nd < p.ndNum; ++nd)
        for (uint32_t r = 0; r < p.nValue; ++r)
            for (uint32_t col = 0; col < p.dValue; col += c0) {
                const uint32_t run = std::min<uint32_t>(c0, p.dValue - col);
                uint64_t si = uint64_t(nd) * p.srcNdMatrixStride + uint64_t(r) * p.srcDValue + col;
                uint64_t di = uint64_t(nd) * p.dstNzMatrixStride + uint64_t(col / c0) * p.dstNzC0Stride * c0 +
                              uint64_t(r) * p.dstNzNStride * c0;
                std::memcpy(d + di * es, src.ptr + si * es, size_t(run) * es);
            }
    s.access(PipeId::MTE2, dst, uint32_t(dstEnd * es), true, at, loc);
    s.launch->gmBytesRead += bytes;
}

void loadData2D(const LocalRef& dst, const LocalRef& src, const Load2D& p, DType t, Loc loc) {
    auto& s = activeImpl();
    CoreContext& c = s.ctx();
    const char* api = "LoadData";
    requirePos(s, dst, {Pos::A2, Pos::B2}, api, "the destination", loc);
    requirePos(s, src, {Pos::A1, Pos::B1}, api, "the source", loc);
    const uint32_t fractal = 512, es = dtypeSize(t);
    uint64_t dstEnd = p.repeatTimes ? (uint64_t(p.repeatTimes - 1) * (1 + p.dstGap) + 1) * fractal : 0;
    uint64_t srcEnd = p.repeatTimes ? (uint64_t(p.startIndex) + uint64_t(p.repeatTimes - 1) * p.srcStride + 1) * fractal : 0;
    s.checkLocal(dst, dstEnd, api, loc, 512);
    s.checkLocal(src, srcEnd, api, loc);
    uint64_t bytes = uint64_t(p.repeatTimes) * fractal;
    double bpc = dst.pos == Pos::A2 ? s.prof.l1ToL0aBytesPerCycle : s.prof.l1ToL0bBytesPerCycle;
    IssueResult at = s.issue(PipeId::MTE1, "LoadData L1->L0", s.prof.dmaIssueCycles + uint64_t(std::ceil(bytes / bpc)),
                             0, 0, bytes, p.repeatTimes, loc);
    uint8_t* d = c.localPtr(dst);
    const uint8_t* sp = c.localPtr(src);
    const uint32_t rows = 16, cols = fractal / es / rows;  // a fractal is 16 rows of 32 bytes
    std::vector<uint8_t> tmp(fractal);
    for (uint32_t i = 0; i < p.repeatTimes; ++i) {
        const uint8_t* sf = sp + (uint64_t(p.startIndex) + uint64_t(i) * p.srcStride) * fractal;
        uint8_t* df = d + uint64_t(i) * (1 + p.dstGap) * fractal;
        if (!p.transpose || cols != rows) {
            std::memcpy(df, sf, fractal);
            continue;
        }
        for (uint32_t r = 0; r < rows; ++r)
            for (uint32_t q = 0; q < cols; ++q) std::memcpy(&tmp[(q * rows + r) * es], sf + (r * cols + q) * es, es);
        std::memcpy(df, tmp.data(), fractal);
    }
    s.access(PipeId::MTE1, src, uint32_t(srcEnd), false, at, loc);
    s.access(PipeId::MTE1, dst, uint32_t(dstEnd), true, at, loc);
}

void mmad(const LocalRef& cRef, const LocalRef& aRef, const LocalRef& bRef, const LocalRef* bias, const MmadShape& p,
          DType ct, DType at, Loc loc) {
    auto& s = activeImpl();
    CoreContext& c = s.ctx();
    s.usedCube = true;
    const char* api = "Mmad";
    requirePos(s, cRef, {Pos::CO1}, api, "C", loc);
    requirePos(s, aRef, {Pos::A2}, api, "A", loc);
    requirePos(s, bRef, {Pos::B2}, api, "B", loc);
    uint32_t aes = dtypeSize(at), k0 = 32 / aes;
    uint64_t mb = ceilDiv(p.m, 16), nb = ceilDiv(p.n, 16), kb = ceilDiv(p.k, k0);
    s.checkLocal(aRef, mb * kb * 512, api, loc, 512);
    s.checkLocal(bRef, kb * nb * 512, api, loc, 512);
    s.checkLocal(cRef, mb * nb * 256 * 4, api, loc, 64);
    uint64_t fractals = mb * nb * kb;
    s.launch->cubeFractals += fractals;
    IssueResult t = s.issue(PipeId::M, "Mmad",
                            s.prof.mmadOverheadCycles + uint64_t(std::ceil(double(fractals) * s.prof.cubeCyclesPerFractal)),
                            0, 0, 0, uint32_t(fractals), loc);
    if (bias && p.initC)
        s.report("mmad_bias_ignored",
                 "Mmad with a bias table and cmatrixInitVal = true starts C from zero, so the bias is not added. "
                 "Set cmatrixInitVal = false to get C = bias + A x B.",
                 loc, false, "warning");
    const uint8_t* A = c.localPtr(aRef);
    const uint8_t* B = c.localPtr(bRef);
    uint8_t* C = c.localPtr(cRef);
    const uint64_t mAligned = mb * 16;
    // Operands are read once into dense float matrices so the inner loop stays cheap. A fractal
    // row holds k0 consecutive k of one m (A) or one n (B), so each is converted in one call.
    std::vector<float> a(size_t(p.m) * p.k), b(size_t(p.k) * p.n);
    for (uint32_t m = 0; m < p.m; ++m)
        for (uint64_t kBlock = 0; kBlock < kb; ++kBlock) {
            const uint32_t k = uint32_t(kBlock * k0), run = std::min<uint32_t>(k0, p.k - k);
            const uint64_t idx = ((m / 16) * kb + kBlock) * (16 * k0) + (m % 16) * k0;
            vecmath::loadFloats(at, A + idx * aes, run, a.data() + size_t(m) * p.k + k);
        }
    for (uint64_t kBlock = 0; kBlock < kb; ++kBlock) {
        const uint32_t k = uint32_t(kBlock * k0), run = std::min<uint32_t>(k0, p.k - k);
        for (uint32_t n = 0; n < p.n; ++n) {
            const uint64_t idx = (kBlock * nb + n / 16) * (16 * k0) + (n % 16) * k0;
            vecmath::loadFloats(at, B + idx * aes, run, b.data() + size_t(k) * p.n + n, p.n);
        }
    }
    const uint32_t ces = dtypeSize(ct);
    // One row of C at a time, k outermost: every element still sums its products in k order (the
    // same float result as a dot product per element), but the inner loop runs over contiguous n,
    // which the compiler vectorises. A 1024^3 product went from about 9 s to well under 1 s.
    std::vector<float> row(p.n);
    for (uint32_t m = 0; m < p.m; ++m) {
        std::fill(row.begin(), row.end(), 0.0f);
        const float* am = a.data() + size_t(m) * p.k;
        for (uint32_t k = 0; k < p.k; ++k) {
            const float av = am[k];
            const float* bk = b.data() + size_t(k) * p.n;
            float* r = row.data();
            for (uint32_t n = 0; n < p.n; ++n) r[n] += av * bk[n];
        }
        // cmatrixInitVal=true starts from zero; otherwise C starts from the bias table when one is
        // given (C = bias + A.B) and from what L0C holds when not (C += A.B). A C fractal row holds
        // 16 consecutive n of one m.
        for (uint32_t n = 0; n < p.n; n += 16) {
            const uint32_t run = std::min<uint32_t>(16, p.n - n);
            uint8_t* dst = C + ((n / 16) * mAligned * 16 + uint64_t(m) * 16) * ces;
            const uint8_t* prev = p.initC ? nullptr : bias ? c.localPtr(*bias) + uint64_t(n) * ces : dst;
            vecmath::addFloatsAndStore(ct, dst, prev, row.data() + n, run);
        }
    }
    s.access(PipeId::M, aRef, uint32_t(mb * kb * 512), false, t, loc);
    s.access(PipeId::M, bRef, uint32_t(kb * nb * 512), false, t, loc);
    s.access(PipeId::M, cRef, uint32_t(mb * nb * 256 * 4), true, t, loc);
}

void fixpipe(const GmRef& dst, const LocalRef& src, const FixpipeShape& p, DType dt, DType st, Loc loc) {
    auto& s = activeImpl();
    CoreContext& c = s.ctx();
    const char* api = "Fixpipe";
    requirePos(s, src, {Pos::CO1}, api, "the source", loc);
    uint32_t des = dtypeSize(dt), ses = dtypeSize(st);
    uint64_t srcEnd = (ceilDiv(p.nSize, 16) * uint64_t(p.srcStride) * 16) * ses;
    uint64_t dstEnd = p.mSize && p.nSize ? (uint64_t(p.mSize - 1) * p.dstStride + p.nSize) * des : 0;
    s.checkLocal(src, std::min<uint64_t>(srcEnd, src.bytes), api, loc, 64);
    s.checkGm(dst.ptr, dst.limit, dstEnd, api, loc);
    uint64_t bytes = uint64_t(p.mSize) * p.nSize * des;
    IssueResult at = s.issue(PipeId::FIX, "Fixpipe L0C->GM", s.prof.dmaIssueCycles, c.gmWriteLatency,
                             std::max<uint64_t>(1, uint64_t(std::ceil(double(bytes) / c.l0cGmBpc))), bytes, 0, loc);
    const uint8_t* sp = c.localPtr(src);
    for (uint32_t m = 0; m < p.mSize; ++m)
        for (uint32_t n = 0; n < p.nSize; ++n) {
            uint64_t si = (n / 16) * uint64_t(p.srcStride) * 16 + uint64_t(m) * 16 + n % 16;
            uint64_t di = p.nz2nd ? uint64_t(m) * p.dstStride + n : si;
            double v = vecmath::loadScalar(st, sp + si * ses);
            if (p.relu && v < 0) v = 0;
            uint8_t* out = dst.ptr + di * des;
            if (c.atomicMode) {
                uint8_t tmp[8];
                vecmath::storeScalar(dt, tmp, v);
                vecmath::accumulate(dt, out, tmp, 1, c.atomicMode);
            } else {
                vecmath::storeScalar(dt, out, v);
            }
            s.gmWrites.recordWrite(out, des);
        }
    s.access(PipeId::FIX, src, uint32_t(std::min<uint64_t>(srcEnd, src.bytes)), false, at, loc);
    s.launch->gmBytesWritten += bytes;
}

} // namespace rt
} // namespace sage::npu
