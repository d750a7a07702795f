// Every API group of the simulated NPU against plain C++: data copy, vector (count, mask + repeat,
// counter mode, expression form, advanced activations), Cast under every RoundMode, half/bfloat16
// numerics, reductions (with the documented summation order), Compare/Select, synchronisation,
// scalar access, tiling macros and the cube path (Nd2Nz, LoadData, Mmad, Fixpipe).
//
// Expectations are computed independently: half through the compiler's IEEE _Float16, bfloat16
// by an explicit nearest-even search, reductions by re-deriving the documented tree order.
#include "NpuHarness.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <numeric>

namespace apik {
#include "kernels/api/copy_kernels.cpp"
#include "kernels/api/vector_kernels.cpp"
#include "kernels/api/cast_reduce_kernels.cpp"
#include "kernels/api/sync_misc_kernels.cpp"
#include "kernels/api/cube_kernels.cpp"
} // namespace apik

// The two example kernels of docs/kernel-api.md, verbatim; their host sides are renamed so that
// both fit in one binary.
#undef SAGE_HOST
#define SAGE_HOST(ctx) void host_launch(::sage::host::Context& ctx)
namespace example_axpy {
#include "kernels/api/example_axpy.cpp"
}
namespace example_row_sum {
#include "kernels/api/example_row_sum.cpp"
}
#undef SAGE_HOST
#define SAGE_HOST(ctx) extern "C" void sage_host_launch(::sage::host::Context& ctx)

namespace {

// ---- independent references -----------------------------------------------------------------

uint16_t refHalfBits(double v) {
    _Float16 h = static_cast<_Float16>(v);  // IEEE binary16, round to nearest even
    uint16_t b;
    std::memcpy(&b, &h, 2);
    return b;
}
float refHalfValue(uint16_t b) {
    _Float16 h;
    std::memcpy(&h, &b, 2);
    return static_cast<float>(h);
}
half H(double v) { return half::fromBits(refHalfBits(v)); }
float hv(half h) { return refHalfValue(h.bits); }
float roundHalf(double v) { return refHalfValue(refHalfBits(v)); }

// bfloat16 nearest-even by comparing the two neighbours (bit truncation and the next one up).
uint16_t refBf16Bits(float f) {
    uint32_t u = std::bit_cast<uint32_t>(f);
    if (std::isnan(f)) return uint16_t((u >> 16) | 0x40u);
    uint16_t lo = uint16_t(u >> 16);  // toward zero
    if ((u & 0xffffu) == 0) return lo;
    uint16_t hi = uint16_t(lo + 1);   // away from zero (may become inf)
    auto val = [](uint16_t b) {
        double v = std::bit_cast<float>(uint32_t(b) << 16);
        if (std::isinf(v)) v = std::copysign(std::ldexp(1.0, 128), v);  // "2^128" for the distance
        return v;
    };
    double dl = std::fabs(double(f) - val(lo)), dh = std::fabs(val(hi) - double(f));
    if (dl < dh) return lo;
    if (dh < dl) return hi;
    return (lo & 1u) ? hi : lo;
}

int64_t orderedHalf(uint16_t b) { return (b & 0x8000u) ? -int64_t(b & 0x7fffu) : int64_t(b); }
int64_t halfUlps(uint16_t a, uint16_t b) { return std::llabs(orderedHalf(a) - orderedHalf(b)); }
int64_t orderedFloat(float f) {
    uint32_t u = std::bit_cast<uint32_t>(f);
    return (u & 0x80000000u) ? -int64_t(u & 0x7fffffffu) : int64_t(u);
}
int64_t floatUlps(float a, float b) { return std::llabs(orderedFloat(a) - orderedFloat(b)); }

std::vector<half> randHalf(size_t n, double lo, double hi, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> d(lo, hi);
    std::vector<half> v(n);
    for (auto& x : v) x = H(d(rng));
    return v;
}
std::vector<float> randFloat(size_t n, double lo, double hi, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> d(lo, hi);
    std::vector<float> v(n);
    for (auto& x : v) x = float(d(rng));
    return v;
}
std::vector<int32_t> randInt(size_t n, int lo, int hi, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> d(lo, hi);
    std::vector<int32_t> v(n);
    for (auto& x : v) x = d(rng);
    return v;
}

template <typename T> T* toGm(NpuHarness& h, const std::vector<T>& v) {
    T* p = h.gm<T>(v.size());
    std::copy(v.begin(), v.end(), p);
    return p;
}

// Documented fp16 summation order: a binary tree over the 128 lanes of one repeat (lanes the
// mask leaves out hold 0), x[i] = x[2i] + x[2i+1] level by level, every sum rounded to half.
float treeSumHalf(const half* p, size_t count, size_t lanes = 128) {
    std::vector<float> x(lanes, 0.0f);
    for (size_t i = 0; i < count; ++i) x[i] = hv(p[i]);
    for (size_t w = lanes; w > 1; w /= 2)
        for (size_t i = 0; i < w / 2; ++i) x[i] = roundHalf(double(x[2 * i]) + x[2 * i + 1]);
    return x[0];
}
float treeSumFloat(const float* p, size_t count, size_t lanes = 64) {
    std::vector<float> x(lanes, 0.0f);
    for (size_t i = 0; i < count; ++i) x[i] = p[i];
    for (size_t w = lanes; w > 1; w /= 2)
        for (size_t i = 0; i < w / 2; ++i) x[i] = x[2 * i] + x[2 * i + 1];
    return x[0];
}

QString hex16(uint16_t b) { return QString("0x%1").arg(b, 4, 16, QChar('0')); }

// What the pipeline hands a kernel's SAGE_HOST: named GM tensors with shapes, attributes, tiling.
class TestHostContext : public sage::host::Context {
public:
    explicit TestHostContext(NpuHarness& h) : h_(h) {}
    void tensor(const std::string& name, void* p, std::vector<int64_t> shape) {
        tensors_[name] = {static_cast<GM_ADDR>(p), std::move(shape)};
    }
    void setAttr(const std::string& name, double v) { attrs_[name] = v; }

    GM_ADDR gm(const char* n) override { return tensors_.at(n).first; }
    uint64_t numel(const char* n) override {
        uint64_t e = 1;
        for (int64_t d : tensors_.at(n).second) e *= uint64_t(d);
        return e;
    }
    int64_t dim(const char*) override { return 0; }
    int64_t shape(const char* n, int axis) override { return tensors_.at(n).second.at(size_t(axis)); }
    int rank(const char* n) override { return int(tensors_.at(n).second.size()); }
    double attr(const char* n) override { return attrs_.at(n); }
    int vectorCores() override { return h_.sim.profile().vectorCores; }
    int cubeCores() override { return h_.sim.profile().cubeCores; }
    uint32_t ubBytes() override { return h_.sim.profile().ubUsableBytes; }
    GM_ADDR workspace(uint64_t bytes) override { return AscendC::GmAlloc(bytes); }
    void setTilingKey(uint64_t key) override { h_.sim.setTilingKey(key); }
    GM_ADDR tilingBytes(const void* data, uint64_t bytes) override {
        GM_ADDR p = AscendC::GmAlloc(bytes);
        std::memcpy(p, data, bytes);
        return p;
    }

private:
    NpuHarness& h_;
    std::map<std::string, std::pair<GM_ADDR, std::vector<int64_t>>> tensors_;
    std::map<std::string, double> attrs_;
};

} // namespace

// Fails the current test when the last launch reported anything or aborted.
#define EXPECT_CLEAN(h)                                                                 \
    do {                                                                                \
        QVERIFY2((h).last().diagnostics.empty(), (h).describe().c_str());              \
        QVERIFY2(!(h).last().aborted, "launch aborted");                               \
    } while (0)

#define EXPECT_HALF(got, expectBits, what)                                                               \
    QVERIFY2((got).bits == (expectBits),                                                                 \
             qPrintable(QString("%1: got %2 (%3) expected %4 (%5)")                                      \
                            .arg(what)                                                                   \
                            .arg(hex16((got).bits))                                                      \
                            .arg(double(refHalfValue((got).bits)))                                       \
                            .arg(hex16(expectBits))                                                      \
                            .arg(double(refHalfValue(expectBits)))))

class TestNpuApi : public QObject {
    Q_OBJECT

    template <typename T>
    std::vector<T> runCount(NpuHarness& h, const std::vector<T>& a, const std::vector<T>& b, apik::VecJob j) {
        T* ga = toGm(h, a);
        T* gb = toGm(h, b);
        T* gc = h.gm<T>(j.len);
        ICPU_RUN_KF(apik::vec_count_kernel<T>, 1, (GM_ADDR)ga, (GM_ADDR)gb, (GM_ADDR)gc, j);
        return std::vector<T>(gc, gc + j.len);
    }
    template <typename T>
    std::vector<T> runRepeat(NpuHarness& h, const std::vector<T>& a, const std::vector<T>& b,
                             const std::vector<T>& c, apik::RepJob j) {
        T* ga = toGm(h, a);
        T* gb = toGm(h, b);
        T* gc = toGm(h, c);
        ICPU_RUN_KF(apik::vec_repeat_kernel<T>, 1, (GM_ADDR)ga, (GM_ADDR)gb, (GM_ADDR)gc, j);
        return std::vector<T>(gc, gc + j.len);
    }
    template <typename D, typename S>
    std::vector<D> runCast(NpuHarness& h, const std::vector<S>& src, AscendC::RoundMode mode) {
        S* gs = toGm(h, src);
        D* gd = h.gm<D>(src.size());
        ICPU_RUN_KF((apik::cast_kernel<D, S>), 1, (GM_ADDR)gs, (GM_ADDR)gd, uint32_t(src.size()), mode);
        return std::vector<D>(gd, gd + src.size());
    }

private slots:
    // ================================ data copy ================================================

    void dataCopyCountFormAndUbToUb() {
        NpuHarness h;
        const uint32_t n = 256;
        auto x = randHalf(n, -100, 100, 11);
        half* gx = toGm(h, x);
        half* gy = h.gm<half>(n);
        ICPU_RUN_KF(apik::copy_count_kernel<half>, 1, (GM_ADDR)gx, (GM_ADDR)gy, n);
        EXPECT_CLEAN(h);
        for (uint32_t i = 0; i < n; ++i) QCOMPARE(gy[i].bits, x[i].bits);
        QCOMPARE(h.last().gmBytesRead, uint64_t(n * 2));
        QCOMPARE(h.last().gmBytesWritten, uint64_t(n * 2));
        bool ubToUbOnV = false;
        for (const auto& e : h.last().events)
            if (std::string(e.op) == "DataCopy UB->UB") ubToUbOnV = e.pipe == uint8_t(sage::npu::PipeId::V);
        QVERIFY2(ubToUbOnV, "the UB -> UB copy should be an instruction on PIPE_V");

        auto xi = randInt(64, -1000000, 1000000, 12);
        int32_t* gxi = toGm(h, xi);
        int32_t* gyi = h.gm<int32_t>(64);
        ICPU_RUN_KF(apik::copy_count_kernel<int32_t>, 1, (GM_ADDR)gxi, (GM_ADDR)gyi, 64u);
        EXPECT_CLEAN(h);
        for (int i = 0; i < 64; ++i) QCOMPARE(gyi[i], xi[size_t(i)]);
    }

    void dataCopyCountFormRoundsDownUnalignedLength() {
        NpuHarness h;
        const uint32_t n = 37;  // 74 bytes: the hardware moves 64 and drops the rest
        auto x = randHalf(n, 1, 2, 13);
        half* gx = toGm(h, x);
        half* gy = h.gm<half>(n);
        ICPU_RUN_KF(apik::copy_count_kernel<half>, 1, (GM_ADDR)gx, (GM_ADDR)gy, n);
        const auto* w = h.find("datacopy_not_32b_multiple");
        QVERIFY2(w, h.describe().c_str());
        QCOMPARE(w->severity, std::string("warning"));
        QVERIFY(!h.last().aborted);
        for (uint32_t i = 0; i < 32; ++i) QCOMPARE(gy[i].bits, x[i].bits);
        for (uint32_t i = 32; i < n; ++i) QCOMPARE(gy[i].bits, uint16_t(0));  // never written
    }

    void dataCopyParamsGapsGmToUb() {
        NpuHarness h;
        // 3 rows of 2 blocks (32 halfs); GM rows are 3 blocks apart, UB rows 4 blocks apart.
        apik::GapCopyArgs a{3, 2, 1, 2, 3 * 4 * 16, H(-7)};
        const uint32_t gmElems = (3 - 1) * 3 * 16 + 2 * 16;
        auto x = randHalf(gmElems, -5, 5, 14);
        half* gx = toGm(h, x);
        half* gy = h.gm<half>(a.ubElems);
        ICPU_RUN_KF(apik::copy_gap_kernel, 1, (GM_ADDR)gx, (GM_ADDR)gy, a);
        EXPECT_CLEAN(h);
        for (uint32_t r = 0; r < 3; ++r)
            for (uint32_t j = 0; j < 64; ++j) {
                uint16_t expect = j < 32 ? x[r * 48 + j].bits : H(-7).bits;
                QCOMPARE(gy[r * 64 + j].bits, expect);
            }
        QCOMPARE(h.last().gmBytesRead, uint64_t(3 * 64));
    }

    void dataCopyParamsGapsUbToGm() {
        NpuHarness h;
        // UB rows of 2 blocks, 1 block apart; GM rows 2 blocks apart.
        apik::GapCopyArgs a{3, 2, 1, 2, 3 * 3 * 16, H(0)};
        auto x = randHalf(a.ubElems, -5, 5, 15);
        half* gx = toGm(h, x);
        const uint32_t gmElems = (3 - 1) * 4 * 16 + 32 + 16;  // one spare block at the end
        half* gy = h.gm<half>(gmElems);
        for (uint32_t i = 0; i < gmElems; ++i) gy[i] = H(42);
        ICPU_RUN_KF(apik::copy_gap_out_kernel, 1, (GM_ADDR)gx, (GM_ADDR)gy, a);
        EXPECT_CLEAN(h);
        for (uint32_t i = 0; i < gmElems; ++i) {
            uint32_t r = i / 64, j = i % 64;
            uint16_t expect = (r < 3 && j < 32) ? x[r * 48 + j].bits : H(42).bits;
            QCOMPARE(gy[i].bits, expect);
        }
    }

    void dataCopyPadGmToUbWithPaddingValue() {
        NpuHarness h;
        // 3 rows of 20 halfs (40 B) 3 halfs apart in GM; 2 left + 10 right padding -> 64 B per
        // row in UB, rows 1 block apart (dstStride 1).
        apik::PadCopyArgs<half> a{3, 40, 6, 1, true, 2, 10, H(-7), 3 * 48, H(99)};
        const uint32_t gmElems = 2 * 23 + 20;  // exactly what the copy reads
        auto x = randHalf(gmElems, -5, 5, 16);
        half* gx = toGm(h, x);
        half* gy = h.gm<half>(a.ubElems);
        ICPU_RUN_KF(apik::copy_pad_in_kernel<half>, 1, (GM_ADDR)gx, (GM_ADDR)gy, a);
        EXPECT_CLEAN(h);
        for (uint32_t r = 0; r < 3; ++r)
            for (uint32_t j = 0; j < 48; ++j) {
                uint16_t expect = j < 2 ? H(-7).bits : j < 22 ? x[r * 23 + j - 2].bits : j < 32 ? H(-7).bits : H(99).bits;
                QCOMPARE(gy[r * 48 + j].bits, expect);
            }
        QCOMPARE(h.last().gmBytesRead, uint64_t(3 * 40));
    }

    void dataCopyPadGmToUbUnalignedDummy() {
        NpuHarness h;
        auto x = randFloat(10, -5, 5, 17);
        float* gx = toGm(h, x);
        // 2 rows of 5 floats (20 B) + 1 left padding = 24 B: the rest of the 32-byte block is
        // dummy data, which takes the padding value when isPad is set.
        apik::PadCopyArgs<float> a{2, 20, 0, 0, true, 1, 0, 3.5f, 16, -1.0f};
        float* gy = h.gm<float>(16);
        ICPU_RUN_KF(apik::copy_pad_in_kernel<float>, 1, (GM_ADDR)gx, (GM_ADDR)gy, a);
        EXPECT_CLEAN(h);
        for (uint32_t r = 0; r < 2; ++r)
            for (uint32_t j = 0; j < 8; ++j) QCOMPARE(gy[r * 8 + j], (j >= 1 && j <= 5) ? x[r * 5 + j - 1] : 3.5f);

        // No left/right padding: the documented dummy is the first element of each block.
        apik::PadCopyArgs<float> b{2, 20, 0, 0, true, 0, 0, 3.5f, 16, -1.0f};
        float* gz = h.gm<float>(16);
        ICPU_RUN_KF(apik::copy_pad_in_kernel<float>, 1, (GM_ADDR)gx, (GM_ADDR)gz, b);
        EXPECT_CLEAN(h);
        for (uint32_t r = 0; r < 2; ++r)
            for (uint32_t j = 0; j < 8; ++j) QCOMPARE(gz[r * 8 + j], j < 5 ? x[r * 5 + j] : x[r * 5]);
    }

    void dataCopyPadUbToGmUnalignedLength() {
        NpuHarness h;
        auto x = randHalf(32, -5, 5, 18);  // UB: 2 rows padded to 16 halfs
        half* gx = toGm(h, x);
        const uint32_t gmElems = 34;
        half* gy = h.gm<half>(gmElems);
        for (uint32_t i = 0; i < gmElems; ++i) gy[i] = H(42);
        // 2 rows of 13 halfs (26 B) written 4 bytes apart in GM.
        ICPU_RUN_KF(apik::copy_pad_out_kernel, 1, (GM_ADDR)gx, (GM_ADDR)gy, uint16_t(2), 26u, 32u, 4u);
        EXPECT_CLEAN(h);
        for (uint32_t i = 0; i < gmElems; ++i) {
            uint32_t r = i / 15, j = i % 15;
            uint16_t expect = (r < 2 && j < 13) ? x[r * 16 + j].bits : H(42).bits;
            QCOMPARE(gy[i].bits, expect);
        }
        QCOMPARE(h.last().gmBytesWritten, uint64_t(2 * 26));
    }

    void setAtomicAddAccumulatesAcrossBlocks() {
        NpuHarness h;
        const uint32_t n = 64;
        std::vector<float> x(n), base(n);
        for (uint32_t i = 0; i < n; ++i) {
            x[i] = float(int(i) - 20) * 0.25f;
            base[i] = float(i) * 0.5f;
        }
        float* gx = toGm(h, x);
        float* gy = toGm(h, base);
        ICPU_RUN_KF(apik::atomic_add_kernel, 4, (GM_ADDR)gx, (GM_ADDR)gy, n);
        EXPECT_CLEAN(h);
        for (uint32_t i = 0; i < n; ++i) QCOMPARE(gy[i], base[i] + 10.0f * x[i]);  // 1 + 2 + 3 + 4
    }

    // ================================ vector: count form =======================================

    void binaryOpsHalf() {
        NpuHarness h;
        const uint32_t n = 300, len = 320;
        auto a = randHalf(len, -8, 8, 21);
        auto b = randHalf(len, 0.5, 4, 22);
        for (uint32_t i = 0; i < len; i += 3) b[i] = H(-hv(b[i]));
        const int ops[] = {apik::V_ADD, apik::V_SUB, apik::V_MUL, apik::V_DIV, apik::V_MAX, apik::V_MIN};
        for (int op : ops) {
            auto c = runCount(h, a, b, {op, n, len, 0, 0});
            EXPECT_CLEAN(h);
            for (uint32_t i = 0; i < n; ++i) {
                double x = hv(a[i]), y = hv(b[i]);
                double r = op == apik::V_ADD ? x + y : op == apik::V_SUB ? x - y : op == apik::V_MUL ? x * y
                         : op == apik::V_DIV ? x / y : op == apik::V_MAX ? std::max(x, y) : std::min(x, y);
                EXPECT_HALF(c[i], refHalfBits(r), QString("op %1 element %2").arg(op).arg(i));
            }
        }
    }

    void binaryOpsFloat() {
        NpuHarness h;
        const uint32_t n = 300, len = 320;
        auto a = randFloat(len, -1000, 1000, 23);
        auto b = randFloat(len, 0.001, 50, 24);
        for (uint32_t i = 1; i < len; i += 3) b[i] = -b[i];
        const int ops[] = {apik::V_ADD, apik::V_SUB, apik::V_MUL, apik::V_DIV, apik::V_MAX, apik::V_MIN};
        for (int op : ops) {
            auto c = runCount(h, a, b, {op, n, len, 0, 0});
            EXPECT_CLEAN(h);
            for (uint32_t i = 0; i < n; ++i) {
                double x = a[i], y = b[i];
                double r = op == apik::V_ADD ? x + y : op == apik::V_SUB ? x - y : op == apik::V_MUL ? x * y
                         : op == apik::V_DIV ? x / y : op == apik::V_MAX ? std::max(x, y) : std::min(x, y);
                QCOMPARE(std::bit_cast<uint32_t>(c[i]), std::bit_cast<uint32_t>(float(r)));
            }
        }
    }

    void binaryOpsInt32() {
        NpuHarness h;
        const uint32_t n = 200, len = 208;
        auto a = randInt(len, -30000, 30000, 25);
        auto b = randInt(len, -30000, 30000, 26);
        const int ops[] = {apik::V_ADD, apik::V_SUB, apik::V_MUL, apik::V_MAX, apik::V_MIN};
        for (int op : ops) {
            auto c = runCount(h, a, b, {op, n, len, 0, 0});
            EXPECT_CLEAN(h);
            for (uint32_t i = 0; i < n; ++i) {
                int64_t x = a[i], y = b[i];
                int64_t r = op == apik::V_ADD ? x + y : op == apik::V_SUB ? x - y : op == apik::V_MUL ? x * y
                          : op == apik::V_MAX ? std::max(x, y) : std::min(x, y);
                QCOMPARE(c[i], int32_t(r));
            }
        }
    }

    void expressionForm() {
        NpuHarness h;
        const uint32_t n = 256;  // the expression form covers the whole destination tensor
        auto a = randHalf(n, -8, 8, 27);
        auto b = randHalf(n, 1, 3, 28);
        const int ops[] = {apik::V_EXPR_ADD, apik::V_EXPR_SUB, apik::V_EXPR_MUL, apik::V_EXPR_DIV};
        for (int op : ops) {
            auto c = runCount(h, a, b, {op, n, n, 0, 0});
            EXPECT_CLEAN(h);
            for (uint32_t i = 0; i < n; ++i) {
                double x = hv(a[i]), y = hv(b[i]);
                double r = op == apik::V_EXPR_ADD ? x + y : op == apik::V_EXPR_SUB ? x - y
                         : op == apik::V_EXPR_MUL ? x * y : x / y;
                EXPECT_HALF(c[i], refHalfBits(r), QString("expr op %1 element %2").arg(op).arg(i));
            }
        }
    }

    void tensorScalarOps() {
        NpuHarness h;
        const uint32_t n = 130, len = 144;
        // half: the scalar is a half too (0.3 rounds to 0x34cd before the operation).
        auto a = randHalf(len, -8, 8, 29);
        const double s = hv(H(double(0.3f)));
        const int ops[] = {apik::V_ADDS, apik::V_MULS, apik::V_MAXS, apik::V_MINS, apik::V_LEAKY};
        for (int op : ops) {
            auto c = runCount(h, a, a, {op, n, len, 0.3f, 0});
            EXPECT_CLEAN(h);
            for (uint32_t i = 0; i < n; ++i) {
                double x = hv(a[i]);
                double r = op == apik::V_ADDS ? x + s : op == apik::V_MULS ? x * s : op == apik::V_MAXS ? std::max(x, s)
                         : op == apik::V_MINS ? std::min(x, s) : (x >= 0 ? x : x * s);
                EXPECT_HALF(c[i], refHalfBits(r), QString("scalar op %1 element %2").arg(op).arg(i));
            }
        }
        auto af = randFloat(len, -100, 100, 30);
        for (int op : ops) {
            auto c = runCount(h, af, af, {op, n, len, -0.7f, 0});
            EXPECT_CLEAN(h);
            const double sf = -0.7f;
            for (uint32_t i = 0; i < n; ++i) {
                double x = af[i];
                double r = op == apik::V_ADDS ? x + sf : op == apik::V_MULS ? x * sf
                         : op == apik::V_MAXS ? std::max(x, sf) : op == apik::V_MINS ? std::min(x, sf)
                         : (x >= 0 ? x : x * sf);
                QCOMPARE(c[i], float(r));
            }
        }
        // int32 with a scalar that float cannot hold exactly (2^24 + 1).
        auto ai = randInt(len, -1000, 1000, 31);
        const int iops[] = {apik::V_ADDS, apik::V_MAXS, apik::V_MINS};
        for (int op : iops) {
            auto c = runCount(h, ai, ai, {op, n, len, 0, 16777217});
            EXPECT_CLEAN(h);
            for (uint32_t i = 0; i < n; ++i) {
                int64_t x = ai[i], si = 16777217;
                int64_t r = op == apik::V_ADDS ? x + si : op == apik::V_MAXS ? std::max(x, si) : std::min(x, si);
                QCOMPARE(c[i], int32_t(r));
            }
        }
        auto cm = runCount(h, ai, ai, {apik::V_MULS, n, len, 0, -3});
        EXPECT_CLEAN(h);
        for (uint32_t i = 0; i < n; ++i) QCOMPARE(cm[i], ai[i] * -3);
    }

    void unaryOpsHalf() {
        NpuHarness h;
        const uint32_t n = 256;
        auto anyv = randHalf(n, -4, 4, 32);
        auto pos = randHalf(n, 0.05, 8, 33);
        struct Case { int op; bool positive; double (*f)(double); int64_t ulps; };
        const Case cases[] = {
            {apik::V_EXP, false, [](double x) { return std::exp(x); }, 1},
            {apik::V_LN, true, [](double x) { return std::log(x); }, 1},
            {apik::V_ABS, false, [](double x) { return std::fabs(x); }, 0},
            {apik::V_RELU, false, [](double x) { return x < 0 ? 0.0 : x; }, 0},
            {apik::V_SQRT, true, [](double x) { return std::sqrt(x); }, 1},
            {apik::V_RSQRT, true, [](double x) { return 1.0 / std::sqrt(x); }, 1},
            {apik::V_RECIP, true, [](double x) { return 1.0 / x; }, 1},
            {apik::V_NEG, false, [](double x) { return -x; }, 0},
        };
        for (const auto& cs : cases) {
            const auto& a = cs.positive ? pos : anyv;
            auto c = runCount(h, a, a, {cs.op, n, n, 0, 0});
            EXPECT_CLEAN(h);
            for (uint32_t i = 0; i < n; ++i) {
                uint16_t expect = refHalfBits(cs.f(hv(a[i])));
                QVERIFY2(halfUlps(c[i].bits, expect) <= cs.ulps,
                         qPrintable(QString("op %1 x=%2: got %3 expected %4").arg(cs.op).arg(double(hv(a[i])))
                                        .arg(double(hv(c[i]))).arg(double(refHalfValue(expect)))));
            }
        }
    }

    void unaryOpsFloatAndInt32() {
        NpuHarness h;
        const uint32_t n = 128;
        auto anyv = randFloat(n, -20, 20, 34);
        auto pos = randFloat(n, 0.001, 1000, 35);
        struct Case { int op; bool positive; double (*f)(double); int64_t ulps; };
        const Case cases[] = {
            {apik::V_EXP, false, [](double x) { return std::exp(x); }, 2},
            {apik::V_LN, true, [](double x) { return std::log(x); }, 2},
            {apik::V_ABS, false, [](double x) { return std::fabs(x); }, 0},
            {apik::V_RELU, false, [](double x) { return x < 0 ? 0.0 : x; }, 0},
            {apik::V_SQRT, true, [](double x) { return std::sqrt(x); }, 0},
            {apik::V_RSQRT, true, [](double x) { return 1.0 / std::sqrt(x); }, 2},
            {apik::V_RECIP, true, [](double x) { return 1.0 / x; }, 0},
            {apik::V_NEG, false, [](double x) { return -x; }, 0},
        };
        for (const auto& cs : cases) {
            const auto& a = cs.positive ? pos : anyv;
            auto c = runCount(h, a, a, {cs.op, n, n, 0, 0});
            EXPECT_CLEAN(h);
            for (uint32_t i = 0; i < n; ++i)
                QVERIFY2(floatUlps(c[i], float(cs.f(a[i]))) <= cs.ulps,
                         qPrintable(QString("op %1 x=%2: got %3 expected %4").arg(cs.op).arg(a[i]).arg(c[i])
                                        .arg(cs.f(a[i]))));
        }
        auto ai = randInt(64, -5000, 5000, 36);
        auto relu = runCount(h, ai, ai, {apik::V_RELU, 64, 64, 0, 0});
        EXPECT_CLEAN(h);
        auto neg = runCount(h, ai, ai, {apik::V_NEG, 64, 64, 0, 0});
        EXPECT_CLEAN(h);
        for (int i = 0; i < 64; ++i) {
            QCOMPARE(relu[size_t(i)], std::max(ai[size_t(i)], 0));
            QCOMPARE(neg[size_t(i)], -ai[size_t(i)]);
        }
    }

    void duplicate() {
        NpuHarness h;
        auto zh = randHalf(160, 0, 1, 37);
        auto ch = runCount(h, zh, zh, {apik::V_DUP, 150, 160, -1.75f, 0});
        EXPECT_CLEAN(h);
        for (uint32_t i = 0; i < 150; ++i) QCOMPARE(ch[i].bits, H(-1.75).bits);
        auto zf = randFloat(72, 0, 1, 38);
        auto cf = runCount(h, zf, zf, {apik::V_DUP, 72, 72, 1e-3f, 0});
        EXPECT_CLEAN(h);
        for (uint32_t i = 0; i < 72; ++i) QCOMPARE(cf[i], 1e-3f);
        auto zi = randInt(72, 0, 1, 39);
        auto ci = runCount(h, zi, zi, {apik::V_DUP, 72, 72, 0, 123456789});
        EXPECT_CLEAN(h);
        for (uint32_t i = 0; i < 72; ++i) QCOMPARE(ci[i], 123456789);
    }

    void advancedActivations() {
        NpuHarness h;
        auto gelu = [](double x) { return 0.5 * x * (1 + std::tanh(0.7978845608028654 * (x + 0.044715 * x * x * x))); };
        auto sigm = [](double x) { return 1 / (1 + std::exp(-x)); };
        auto tanh = [](double x) { return std::tanh(x); };
        struct Case { int op; std::function<double(double)> f; };
        const Case cases[] = {{apik::V_SIGMOID, sigm}, {apik::V_TANH, tanh}, {apik::V_GELU, gelu}};
        auto af = randFloat(128, -6, 6, 40);
        auto ah = randHalf(128, -6, 6, 41);
        for (const auto& cs : cases) {
            auto cf = runCount(h, af, af, {cs.op, 128, 128, 0, 0});
            EXPECT_CLEAN(h);
            for (uint32_t i = 0; i < 128; ++i)
                QVERIFY2(std::fabs(cf[i] - cs.f(af[i])) <= 1e-6 + 1e-5 * std::fabs(cs.f(af[i])),
                         qPrintable(QString("op %1 x=%2 got %3 want %4").arg(cs.op).arg(af[i]).arg(cf[i]).arg(cs.f(af[i]))));
            auto ch = runCount(h, ah, ah, {cs.op, 128, 128, 0, 0});
            EXPECT_CLEAN(h);
            for (uint32_t i = 0; i < 128; ++i)
                QVERIFY2(halfUlps(ch[i].bits, refHalfBits(cs.f(hv(ah[i])))) <= 1,
                         qPrintable(QString("op %1 x=%2 got %3").arg(cs.op).arg(double(hv(ah[i]))).arg(double(hv(ch[i])))));
        }
    }

    // ================================ vector: mask + repeat, counter mode ======================

    void repeatFormBitMaskHalf() {
        NpuHarness h;
        const uint32_t len = 256;
        auto a = randHalf(len, -8, 8, 42), b = randHalf(len, -8, 8, 43);
        std::vector<half> c(len, H(-1));
        apik::RepJob j{apik::R_ADD_MASK_ARRAY, len, 0x00FF00FF00FF00FFull, 0xF0F0F0F0F0F0F0F0ull, 0, 2, 1, 1, 1, 8, 8, 8, 0};
        auto out = runRepeat(h, a, b, c, j);
        EXPECT_CLEAN(h);
        for (uint32_t i = 0; i < len; ++i) {
            uint32_t lane = i % 128;
            bool on = lane < 64 ? (j.mask0 >> lane) & 1 : (j.mask1 >> (lane - 64)) & 1;
            uint16_t expect = on ? refHalfBits(double(hv(a[i])) + hv(b[i])) : H(-1).bits;
            EXPECT_HALF(out[i], expect, QString("element %1").arg(i));
        }
        // Full mask, 4 repeats, {1,1,1,8,8,8}: the same as the count form over 512 elements.
        auto a2 = randHalf(512, -8, 8, 44), b2 = randHalf(512, -8, 8, 45);
        std::vector<half> c2(512, H(0));
        apik::RepJob full{apik::R_ADD_MASK_COUNT, 512, 0, 0, 128, 4, 1, 1, 1, 8, 8, 8, 0};
        auto out2 = runRepeat(h, a2, b2, c2, full);
        EXPECT_CLEAN(h);
        for (uint32_t i = 0; i < 512; ++i) EXPECT_HALF(out2[i], refHalfBits(double(hv(a2[i])) + hv(b2[i])), QString::number(i));
    }

    void repeatFormStridedFloat() {
        NpuHarness h;
        // src0 reads every other 32-byte block (blkStride 2) and jumps 16 blocks per repeat.
        const uint32_t len = 384;
        auto a = randFloat(len, -8, 8, 46), b = randFloat(len, -8, 8, 47);
        std::vector<float> c(len, -1.0f);
        apik::RepJob j{apik::R_ADD_MASK_COUNT, len, 0, 0, 64, 3, 1, 2, 1, 8, 16, 8, 0};
        auto out = runRepeat(h, a, b, c, j);
        EXPECT_CLEAN(h);
        std::vector<float> expect(c);
        for (uint32_t r = 0; r < 3; ++r)
            for (uint32_t k = 0; k < 64; ++k) {
                uint32_t d = r * 64 + k, s0 = r * 128 + (k / 8) * 16 + k % 8, s1 = r * 64 + k;
                expect[d] = a[s0] + b[s1];
            }
        for (uint32_t i = 0; i < len; ++i) QCOMPARE(out[i], expect[i]);

        // Strided destination: 32 lanes (4 blocks) per repeat written every other block.
        std::vector<float> c2(len, -1.0f);
        apik::RepJob k{apik::R_ADD_MASK_COUNT, len, 0, 0, 32, 2, 2, 1, 1, 16, 8, 8, 0};
        auto out2 = runRepeat(h, a, b, c2, k);
        EXPECT_CLEAN(h);
        std::vector<float> expect2(c2);
        for (uint32_t r = 0; r < 2; ++r)
            for (uint32_t q = 0; q < 32; ++q) {
                uint32_t d = r * 128 + (q / 8) * 16 + q % 8, s = r * 64 + q;
                expect2[d] = a[s] + b[s];
            }
        for (uint32_t i = 0; i < len; ++i) QCOMPARE(out2[i], expect2[i]);
    }

    void counterModeAndMaskRegister() {
        NpuHarness h;
        const uint32_t len = 384;
        auto a = randHalf(len, -8, 8, 48), b = randHalf(len, -8, 8, 49);
        std::vector<half> c(len, H(-1));
        // Counter mode: the mask register holds an element count (300: 2 full repeats + 44).
        apik::RepJob cnt{apik::R_ADD_COUNTER, len, 0, 0, 300, 1, 1, 1, 1, 8, 8, 8, 0};
        auto out = runRepeat(h, a, b, c, cnt);
        EXPECT_CLEAN(h);
        for (uint32_t i = 0; i < len; ++i)
            EXPECT_HALF(out[i], i < 300 ? refHalfBits(double(hv(a[i])) + hv(b[i])) : H(-1).bits, QString::number(i));
        // Normal mode with isSetMask = false: the mask comes from SetVectorMask (16 lanes).
        apik::RepJob reg{apik::R_ADD_NORM_REG, len, 0xFFFFull, 0, 0, 3, 1, 1, 1, 8, 8, 8, 0};
        auto out2 = runRepeat(h, a, b, c, reg);
        EXPECT_CLEAN(h);
        for (uint32_t i = 0; i < len; ++i)
            EXPECT_HALF(out2[i], i % 128 < 16 ? refHalfBits(double(hv(a[i])) + hv(b[i])) : H(-1).bits, QString::number(i));
    }

    void repeatFormUnaryScalarAndDuplicate() {
        NpuHarness h;
        const uint32_t len = 128;
        auto a = randFloat(len, -8, 8, 50);
        std::vector<float> c(len, -1.0f);
        apik::RepJob muls{apik::R_MULS_MASK_COUNT, len, 0, 0, 20, 2, 1, 1, 1, 8, 8, 8, 2.5f};
        auto out = runRepeat(h, a, a, c, muls);
        EXPECT_CLEAN(h);
        for (uint32_t i = 0; i < len; ++i) QCOMPARE(out[i], i % 64 < 20 ? a[i] * 2.5f : -1.0f);

        apik::RepJob dup{apik::R_DUP_MASK_COUNT, len, 0, 0, 8, 4, 1, 1, 1, 2, 2, 2, 7.0f};
        auto out2 = runRepeat(h, a, a, c, dup);
        EXPECT_CLEAN(h);
        for (uint32_t i = 0; i < len; ++i) QCOMPARE(out2[i], (i < 64 && i % 16 < 8) ? 7.0f : -1.0f);

        auto ah = randHalf(256, -3, 3, 51);
        std::vector<half> ch(256, H(-1));
        apik::RepJob ex{apik::R_EXP_MASK_ARRAY, 256, ~0ull, 0, 0, 2, 1, 1, 1, 8, 8, 8, 0};
        auto out3 = runRepeat(h, ah, ah, ch, ex);
        EXPECT_CLEAN(h);
        for (uint32_t i = 0; i < 256; ++i) {
            if (i % 128 < 64)
                QVERIFY2(halfUlps(out3[i].bits, refHalfBits(std::exp(double(hv(ah[i]))))) <= 1, qPrintable(QString::number(i)));
            else
                QCOMPARE(out3[i].bits, H(-1).bits);
        }
    }

    // ================================ Cast ======================================================

    void castFloatToHalfEveryRoundMode() {
        NpuHarness h;
        using RM = AscendC::RoundMode;
        const RM modes[] = {RM::CAST_NONE, RM::CAST_RINT, RM::CAST_FLOOR, RM::CAST_CEIL,
                            RM::CAST_ROUND, RM::CAST_TRUNC, RM::CAST_ODD};
        struct Row { float x; uint16_t e[7]; };  // NONE RINT FLOOR CEIL ROUND TRUNC ODD, by hand
        const float t11 = std::ldexp(1.0f, -11), t12 = std::ldexp(1.0f, -12);
        const Row rows[] = {
            {1 + t11, {0x3c00, 0x3c00, 0x3c00, 0x3c01, 0x3c01, 0x3c00, 0x3c01}},      // tie, even below
            {1 + 3 * t11, {0x3c02, 0x3c02, 0x3c01, 0x3c02, 0x3c02, 0x3c01, 0x3c01}},  // tie, even above
            {-(1 + t11), {0xbc00, 0xbc00, 0xbc01, 0xbc00, 0xbc01, 0xbc00, 0xbc01}},   // negative tie
            {1 + t12, {0x3c00, 0x3c00, 0x3c00, 0x3c01, 0x3c00, 0x3c00, 0x3c01}},      // quarter ulp
            {-(1 + 3 * t12), {0xbc01, 0xbc01, 0xbc01, 0xbc00, 0xbc01, 0xbc00, 0xbc01}},
            {-2.5f, {0xc100, 0xc100, 0xc100, 0xc100, 0xc100, 0xc100, 0xc100}},        // exact
            {0.1f, {0x2e66, 0x2e66, 0x2e66, 0x2e67, 0x2e66, 0x2e66, 0x2e67}},
            {70000.0f, {0x7c00, 0x7c00, 0x7bff, 0x7c00, 0x7c00, 0x7bff, 0x7bff}},     // overflow
            {-70000.0f, {0xfc00, 0xfc00, 0xfc00, 0xfbff, 0xfc00, 0xfbff, 0xfbff}},
            {65519.0f, {0x7bff, 0x7bff, 0x7bff, 0x7c00, 0x7bff, 0x7bff, 0x7bff}},
            {65520.0f, {0x7c00, 0x7c00, 0x7bff, 0x7c00, 0x7c00, 0x7bff, 0x7bff}},     // tie with "65536"
            {std::ldexp(1.0f, -25), {0x0000, 0x0000, 0x0000, 0x0001, 0x0001, 0x0000, 0x0001}},  // subnormal tie
            {3 * std::ldexp(1.0f, -26), {0x0001, 0x0001, 0x0000, 0x0001, 0x0001, 0x0000, 0x0001}},
            {-std::ldexp(1.0f, -25), {0x8000, 0x8000, 0x8001, 0x8000, 0x8001, 0x8000, 0x8001}},
            {3 * std::ldexp(1.0f, -25), {0x0002, 0x0002, 0x0001, 0x0002, 0x0002, 0x0001, 0x0001}},
            {1e-8f, {0x0000, 0x0000, 0x0000, 0x0001, 0x0000, 0x0000, 0x0001}},
        };
        std::vector<float> src(32, 0.0f);
        const size_t nRows = sizeof(rows) / sizeof(rows[0]);
        for (size_t i = 0; i < nRows; ++i) src[i] = rows[i].x;
        for (int m = 0; m < 7; ++m) {
            auto out = runCast<half>(h, src, modes[m]);
            EXPECT_CLEAN(h);
            for (size_t i = 0; i < nRows; ++i)
                EXPECT_HALF(out[i], rows[i].e[m], QString("mode %1 x=%2").arg(m).arg(double(rows[i].x), 0, 'g', 10));
        }
    }

    void castFloatToInt32AndFloat() {
        NpuHarness h;
        using RM = AscendC::RoundMode;
        const RM modes[] = {RM::CAST_RINT, RM::CAST_FLOOR, RM::CAST_CEIL, RM::CAST_ROUND, RM::CAST_TRUNC};
        struct Row { float x; int32_t e[5]; };  // RINT FLOOR CEIL ROUND TRUNC
        const Row rows[] = {
            {2.5f, {2, 2, 3, 3, 2}},     {-2.5f, {-2, -3, -2, -3, -2}}, {3.5f, {4, 3, 4, 4, 3}},
            {-0.5f, {0, -1, 0, -1, 0}},  {2.6f, {3, 2, 3, 3, 2}},       {-2.4f, {-2, -3, -2, -2, -2}},
            {0.49999997f, {0, 0, 1, 0, 0}}, {16777215.0f, {16777215, 16777215, 16777215, 16777215, 16777215}},
            // out of range saturates (the simulator's documented behaviour)
            {1e10f, {INT32_MAX, INT32_MAX, INT32_MAX, INT32_MAX, INT32_MAX}},
            {-1e10f, {INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN}},
        };
        const size_t nRows = sizeof(rows) / sizeof(rows[0]);
        std::vector<float> src(16, 0.0f);
        for (size_t i = 0; i < nRows; ++i) src[i] = rows[i].x;
        for (int m = 0; m < 5; ++m) {
            auto out = runCast<int32_t>(h, src, modes[m]);
            EXPECT_CLEAN(h);
            for (size_t i = 0; i < nRows; ++i) QCOMPARE(out[i], rows[i].e[m]);
            // float -> float under a rounding mode rounds to an integral value.
            auto outf = runCast<float>(h, src, modes[m]);
            EXPECT_CLEAN(h);
            for (size_t i = 0; i < nRows; ++i) {
                float expect = std::fabs(rows[i].x) < 1e9f ? float(rows[i].e[m]) : rows[i].x;
                if (rows[i].x == -0.5f && (m == 0 || m == 2 || m == 4)) expect = -0.0f;
                if (rows[i].x == 0.49999997f && m != 2) expect = 0.0f;
                QCOMPARE(std::bit_cast<uint32_t>(outf[i]), std::bit_cast<uint32_t>(expect));
            }
        }
    }

    void castHalfToFloatIsExact() {
        NpuHarness h;
        const uint16_t bits[] = {0x0001, 0x03ff, 0x0400, 0x3555, 0x3c00, 0x7bff, 0x7c00, 0x8000,
                                 0x8001, 0xbc01, 0xc49a, 0xfbff, 0xfc00, 0x1234, 0x2e66, 0x5640};
        std::vector<half> src(16);
        for (int i = 0; i < 16; ++i) src[size_t(i)] = half::fromBits(bits[i]);
        auto out = runCast<float>(h, src, AscendC::RoundMode::CAST_NONE);
        EXPECT_CLEAN(h);
        for (int i = 0; i < 16; ++i)
            QCOMPARE(std::bit_cast<uint32_t>(out[size_t(i)]), std::bit_cast<uint32_t>(refHalfValue(bits[i])));
        // and back: half -> float -> half is the identity
        auto back = runCast<half>(h, out, AscendC::RoundMode::CAST_RINT);
        EXPECT_CLEAN(h);
        for (int i = 0; i < 16; ++i) QCOMPARE(back[size_t(i)].bits, bits[i]);
    }

    void castBfloat16() {
        NpuHarness h;
        using RM = AscendC::RoundMode;
        const RM modes[] = {RM::CAST_RINT, RM::CAST_FLOOR, RM::CAST_CEIL, RM::CAST_ROUND, RM::CAST_TRUNC};
        struct Row { float x; uint16_t e[5]; };  // RINT FLOOR CEIL ROUND TRUNC, by hand
        const float t8 = std::ldexp(1.0f, -8);
        const Row rows[] = {
            {1 + t8, {0x3f80, 0x3f80, 0x3f81, 0x3f81, 0x3f80}},
            {1 + 3 * t8, {0x3f82, 0x3f81, 0x3f82, 0x3f82, 0x3f81}},
            {-(1 + t8), {0xbf80, 0xbf81, 0xbf80, 0xbf81, 0xbf80}},
            {1 + std::ldexp(1.0f, -9), {0x3f80, 0x3f80, 0x3f81, 0x3f80, 0x3f80}},
            {std::numeric_limits<float>::max(), {0x7f80, 0x7f7f, 0x7f80, 0x7f80, 0x7f7f}},
            {std::bit_cast<float>(0x00018000u), {0x0002, 0x0001, 0x0002, 0x0002, 0x0001}},  // subnormal tie
            {-3.0f, {0xc040, 0xc040, 0xc040, 0xc040, 0xc040}},
        };
        const size_t nRows = sizeof(rows) / sizeof(rows[0]);
        std::vector<float> src(16, 0.0f);
        for (size_t i = 0; i < nRows; ++i) src[i] = rows[i].x;
        for (int m = 0; m < 5; ++m) {
            auto out = runCast<bfloat16_t>(h, src, modes[m]);
            EXPECT_CLEAN(h);
            for (size_t i = 0; i < nRows; ++i)
                QVERIFY2(out[i].bits == rows[i].e[m],
                         qPrintable(QString("mode %1 row %2: got %3 expected %4").arg(m).arg(i)
                                        .arg(hex16(out[i].bits)).arg(hex16(rows[i].e[m]))));
        }
        std::vector<bfloat16_t> b(16);
        for (int i = 0; i < 16; ++i) b[size_t(i)] = bfloat16_t::fromBits(uint16_t(0x3f80 + 37 * i) ^ (i % 2 ? 0x8000 : 0));
        auto f = runCast<float>(h, b, RM::CAST_NONE);
        EXPECT_CLEAN(h);
        for (int i = 0; i < 16; ++i) QCOMPARE(std::bit_cast<uint32_t>(f[size_t(i)]), uint32_t(b[size_t(i)].bits) << 16);
    }

    // ================================ numerics =================================================

    void halfIsIeeeBinary16WithNearestEven() {
        NpuHarness h;  // the half -> float table lives in the runtime
        for (uint32_t b = 0; b < 0x10000; ++b) {
            float got = float(half::fromBits(uint16_t(b)));
            float want = refHalfValue(uint16_t(b));
            if (std::isnan(want)) {
                QVERIFY(std::isnan(got));
                continue;
            }
            QCOMPARE(std::bit_cast<uint32_t>(got), std::bit_cast<uint32_t>(want));
        }
        // Every midpoint between neighbouring finite halfs (ties -> even), and just off it.
        for (uint32_t b = 0; b < 0x7bff; ++b) {
            double lo = refHalfValue(uint16_t(b)), hi = refHalfValue(uint16_t(b + 1));
            float mid = float((lo + hi) / 2);  // exact in float
            QCOMPARE(half(mid).bits, uint16_t((b & 1) ? b + 1 : b));
            QCOMPARE(half(-mid).bits, uint16_t(((b & 1) ? b + 1 : b) | 0x8000));
            QCOMPARE(half(std::nextafter(mid, 0.0f)).bits, refHalfBits(std::nextafter(mid, 0.0f)));
            QCOMPARE(half(std::nextafter(mid, 1e9f)).bits, refHalfBits(std::nextafter(mid, 1e9f)));
        }
        QCOMPARE(half(65519.996f).bits, uint16_t(0x7bff));
        QCOMPARE(half(65520.0f).bits, uint16_t(0x7c00));  // overflow to inf
        QCOMPARE(half(-1e6f).bits, uint16_t(0xfc00));
        QCOMPARE(half(std::numeric_limits<float>::infinity()).bits, uint16_t(0x7c00));
        QVERIFY((half(std::numeric_limits<float>::quiet_NaN()).bits & 0x7fffu) > 0x7c00u);
        QCOMPARE(half(std::ldexp(1.0f, -24)).bits, uint16_t(0x0001));  // smallest subnormal
        QCOMPARE(half(std::ldexp(1.0f, -26)).bits, uint16_t(0x0000));  // underflow to zero
        QCOMPARE(half(-0.0f).bits, uint16_t(0x8000));
        // Random floats over the whole half range, subnormals included.
        std::mt19937 rng(52);
        std::uniform_int_distribution<uint32_t> bitsDist(0x30000000u, 0x47ffffffu);
        for (int i = 0; i < 200000; ++i) {
            float f = std::bit_cast<float>(bitsDist(rng) | (i % 2 ? 0x80000000u : 0u));
            QCOMPARE(half(f).bits, refHalfBits(f));
        }
    }

    void bfloat16IsNearestEven() {
        for (uint32_t b = 0; b < 0x7f80; ++b) {
            float mid = std::bit_cast<float>((b << 16) | 0x8000u);  // midpoint of b and b + 1
            QCOMPARE(bfloat16_t(mid).bits, uint16_t((b & 1) ? b + 1 : b));
            QCOMPARE(bfloat16_t(-mid).bits, uint16_t(((b & 1) ? b + 1 : b) | 0x8000));
        }
        std::mt19937 rng(53);
        std::uniform_int_distribution<uint32_t> bitsDist;
        for (int i = 0; i < 200000; ++i) {
            float f = std::bit_cast<float>(bitsDist(rng));
            if (std::isnan(f)) continue;
            QCOMPARE(bfloat16_t(f).bits, refBf16Bits(f));
        }
        QCOMPARE(bfloat16_t(std::numeric_limits<float>::max()).bits, uint16_t(0x7f80));  // rounds to inf
        QCOMPARE(float(bfloat16_t::fromBits(0x4049)), 3.140625f);
    }

    void halfArithmeticEdgeCasesOnDevice() {
        NpuHarness h;
        // pairs (a, b) for a + b: overflow, subnormal sums, ties at large magnitude
        const float s24 = std::ldexp(1.0f, -24);
        const std::pair<float, float> pairs[] = {
            {60000, 60000}, {-65504, -65504}, {s24, s24}, {std::ldexp(1.0f, -14), -s24},
            {2048, 1}, {2050, 1}, {1, std::ldexp(1.0f, -11)}, {1, 3 * std::ldexp(1.0f, -11)},
            {0.1f, 0.2f}, {-0.0f, 0.0f}, {65504, 16}, {65504, 15},
        };
        const size_t np = sizeof(pairs) / sizeof(pairs[0]);
        std::vector<half> a(16, H(0)), b(16, H(0));
        for (size_t i = 0; i < np; ++i) {
            a[i] = H(pairs[i].first);
            b[i] = H(pairs[i].second);
        }
        auto c = runCount(h, a, b, {apik::V_ADD, 16, 16, 0, 0});
        EXPECT_CLEAN(h);
        const uint16_t expect[] = {0x7c00, 0xfc00, 0x0002, 0x03ff, 0x6800, 0x6802, 0x3c00, 0x3c02,
                                   0x34cc, 0x0000, 0x7c00, 0x7bff};
        for (size_t i = 0; i < np; ++i) EXPECT_HALF(c[i], expect[i], QString("pair %1").arg(i));
        // 2^-14 * 0.5 becomes the subnormal 2^-15
        std::vector<half> m(16, H(std::ldexp(1.0, -14)));
        auto d = runCount(h, m, m, {apik::V_MULS, 16, 16, 0.5f, 0});
        EXPECT_CLEAN(h);
        for (int i = 0; i < 16; ++i) QCOMPARE(d[size_t(i)].bits, uint16_t(0x0200));
    }

    // ================================ reductions ===============================================

    void reduceSumHalfOrderOn910B() {
        // 910B, count form: a tree inside each 128-element repeat, repeat results added in order.
        NpuHarness h;
        const uint32_t n = 1008;  // 7 full repeats and a tail of 112
        auto x = randHalf(n, 0, 1, 55);  // this data tells the two orders apart
        half* gx = toGm(h, x);
        half* gy = h.gm<half>(16);
        ICPU_RUN_KF(apik::reduce_kernel<half>, 1, (GM_ADDR)gx, (GM_ADDR)gy, n, 0, false);
        EXPECT_CLEAN(h);
        std::vector<float> parts;
        for (uint32_t r = 0; r * 128 < n; ++r) parts.push_back(treeSumHalf(&x[r * 128], std::min(128u, n - r * 128)));
        float seq = parts[0];
        for (size_t i = 1; i < parts.size(); ++i) seq = roundHalf(double(seq) + parts[i]);
        std::vector<half> ph;
        for (float p : parts) ph.push_back(H(p));
        float tree = treeSumHalf(ph.data(), ph.size());
        QVERIFY2(seq != tree, "test data must tell the two orders apart");
        EXPECT_HALF(gy[0], refHalfBits(seq), QString("ReduceSum"));
        double exact = 0;  // and the fp16 result stays close to the exact sum
        for (auto v : x) exact += hv(v);
        QVERIFY(std::fabs(hv(gy[0]) - exact) < 0.02 * exact);
    }

    void reduceSumHalfOrderOn310P() {
        // 310P: the repeat results are summed by the same tree again.
        sage::npu::DeviceProfile p;
        p.id = "310p-like";
        p.npuArch = 2002;
        NpuHarness h(p);
        const uint32_t n = 1008;
        auto x = randHalf(n, 0, 1, 55);  // this data tells the two orders apart
        half* gx = toGm(h, x);
        half* gy = h.gm<half>(16);
        ICPU_RUN_KF(apik::reduce_kernel<half>, 1, (GM_ADDR)gx, (GM_ADDR)gy, n, 0, false);
        EXPECT_CLEAN(h);
        std::vector<half> ph;
        for (uint32_t r = 0; r * 128 < n; ++r) ph.push_back(H(treeSumHalf(&x[r * 128], std::min(128u, n - r * 128))));
        float seq = hv(ph[0]);
        for (size_t i = 1; i < ph.size(); ++i) seq = roundHalf(double(seq) + hv(ph[i]));
        const float tree = treeSumHalf(ph.data(), ph.size());
        QVERIFY2(seq != tree, "test data must tell the two orders apart");
        EXPECT_HALF(gy[0], refHalfBits(tree), QString("ReduceSum 310P"));
    }

    void reduceSumFloatAndMaxMinWithIndex() {
        NpuHarness h;
        const uint32_t n = 1000;  // 15 full repeats of 64 and a tail of 40
        auto x = randFloat(n, -3, 3, 55);
        float* gx = toGm(h, x);
        float* gy = h.gm<float>(8);
        ICPU_RUN_KF(apik::reduce_kernel<float>, 1, (GM_ADDR)gx, (GM_ADDR)gy, n, 0, false);
        EXPECT_CLEAN(h);
        float seq = 0;
        for (uint32_t r = 0; r * 64 < n; ++r) {
            float part = treeSumFloat(&x[r * 64], std::min(64u, n - r * 64));
            seq = r == 0 ? part : seq + part;
        }
        QCOMPARE(std::bit_cast<uint32_t>(gy[0]), std::bit_cast<uint32_t>(seq));

        // max / min with calIndex: dst[1] holds the index as integer bits
        x[777] = 9.5f;
        x[123] = -9.25f;
        float* gx2 = toGm(h, x);
        ICPU_RUN_KF(apik::reduce_kernel<float>, 1, (GM_ADDR)gx2, (GM_ADDR)gy, n, 1, true);
        EXPECT_CLEAN(h);
        QCOMPARE(gy[0], 9.5f);
        QCOMPARE(std::bit_cast<uint32_t>(gy[1]), 777u);
        ICPU_RUN_KF(apik::reduce_kernel<float>, 1, (GM_ADDR)gx2, (GM_ADDR)gy, n, 2, true);
        EXPECT_CLEAN(h);
        QCOMPARE(gy[0], -9.25f);
        QCOMPARE(std::bit_cast<uint32_t>(gy[1]), 123u);

        auto xh = randHalf(608, -100, 100, 56);
        xh[599] = H(500);
        half* ghx = toGm(h, xh);
        half* ghy = h.gm<half>(16);
        ICPU_RUN_KF(apik::reduce_kernel<half>, 1, (GM_ADDR)ghx, (GM_ADDR)ghy, 608u, 1, true);
        EXPECT_CLEAN(h);
        QCOMPARE(ghy[0].bits, H(500).bits);
        QCOMPARE(ghy[1].bits, uint16_t(599));
    }

    void wholeReduceOverRows() {
        NpuHarness h;
        // 8 rows of 128 halfs; the sum of the first 100 of each row.
        auto x = randHalf(8 * 128, -2, 2, 57);
        half* gx = toGm(h, x);
        half* gy = h.gm<half>(16);
        apik::WholeJob j{apik::WR_SUM, 100, 8, 1, 1, 8, AscendC::ORDER_VALUE_INDEX, 8 * 128, 16};
        ICPU_RUN_KF(apik::whole_reduce_kernel<half>, 1, (GM_ADDR)gx, (GM_ADDR)gy, j);
        EXPECT_CLEAN(h);
        for (uint32_t r = 0; r < 8; ++r) EXPECT_HALF(gy[r], refHalfBits(treeSumHalf(&x[r * 128], 100)), QString("row %1").arg(r));
        for (uint32_t r = 8; r < 16; ++r) QCOMPARE(gy[r].bits, uint16_t(0));  // untouched

        // WholeReduceMax on 4 rows of 64 floats: (value, index) pairs.
        auto xf = randFloat(4 * 64, -50, 50, 58);
        float* gxf = toGm(h, xf);
        float* gyf = h.gm<float>(8);
        apik::WholeJob m{apik::WR_MAX, 64, 4, 1, 1, 8, AscendC::ORDER_VALUE_INDEX, 4 * 64, 8};
        ICPU_RUN_KF(apik::whole_reduce_kernel<float>, 1, (GM_ADDR)gxf, (GM_ADDR)gyf, m);
        EXPECT_CLEAN(h);
        for (uint32_t r = 0; r < 4; ++r) {
            auto it = std::max_element(xf.begin() + r * 64, xf.begin() + (r + 1) * 64);
            QCOMPARE(gyf[2 * r], *it);
            QCOMPARE(std::bit_cast<uint32_t>(gyf[2 * r + 1]), uint32_t(it - (xf.begin() + r * 64)));
        }
    }

    void blockReduceSum() {
        NpuHarness h;
        // 2 repeats x 8 blocks of 16 halfs -> 16 block sums, written back to back (dstRepStride 1
        // = one repeat's 8 results).
        auto x = randHalf(256, -2, 2, 59);
        half* gx = toGm(h, x);
        half* gy = h.gm<half>(32);
        apik::WholeJob j{apik::BR_SUM, 128, 2, 1, 1, 8, AscendC::ORDER_VALUE_INDEX, 256, 32};
        ICPU_RUN_KF(apik::whole_reduce_kernel<half>, 1, (GM_ADDR)gx, (GM_ADDR)gy, j);
        EXPECT_CLEAN(h);
        for (uint32_t b = 0; b < 16; ++b) EXPECT_HALF(gy[b], refHalfBits(treeSumHalf(&x[b * 16], 16, 16)), QString("block %1").arg(b));
        for (uint32_t b = 16; b < 32; ++b) QCOMPARE(gy[b].bits, uint16_t(0));

        auto xf = randFloat(128, -2, 2, 60);
        float* gxf = toGm(h, xf);
        float* gyf = h.gm<float>(16);
        apik::WholeJob jf{apik::BR_MAX, 64, 2, 1, 1, 8, AscendC::ORDER_VALUE_INDEX, 128, 16};
        ICPU_RUN_KF(apik::whole_reduce_kernel<float>, 1, (GM_ADDR)gxf, (GM_ADDR)gyf, jf);
        EXPECT_CLEAN(h);
        for (uint32_t b = 0; b < 16; ++b) QCOMPARE(gyf[b], *std::max_element(xf.begin() + b * 8, xf.begin() + b * 8 + 8));
    }

    // ================================ Compare / Select =========================================

    void compareAndSelect() {
        NpuHarness h;
        const uint32_t n = 256;
        auto a = randHalf(n, -4, 4, 61), b = randHalf(n, -4, 4, 62);
        for (uint32_t i = 0; i < n; i += 7) b[i] = a[i];  // some equal pairs
        using CM = AscendC::CMPMODE;
        const CM modes[] = {CM::LT, CM::GT, CM::EQ, CM::LE, CM::GE, CM::NE};
        for (int m = 0; m < 6; ++m) {
            half* ga = toGm(h, a);
            half* gb = toGm(h, b);
            uint8_t* gm = h.gm<uint8_t>(n / 8);
            half* go = h.gm<half>(n);
            apik::CmpSelJob j{n, modes[m], false, 0, AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE};
            ICPU_RUN_KF(apik::cmpsel_kernel<half>, 1, (GM_ADDR)ga, (GM_ADDR)gb, (GM_ADDR)gm, (GM_ADDR)go, j);
            EXPECT_CLEAN(h);
            for (uint32_t i = 0; i < n; ++i) {
                float x = hv(a[i]), y = hv(b[i]);
                bool r = m == 0 ? x < y : m == 1 ? x > y : m == 2 ? x == y : m == 3 ? x <= y : m == 4 ? x >= y : x != y;
                QCOMPARE(bool((gm[i / 8] >> (i % 8)) & 1), r);
                QCOMPARE(go[i].bits, r ? a[i].bits : b[i].bits);
            }
        }
        // CompareScalar + Select with a scalar: clamp from below, y = x > 0.5 ? x : 0.5
        auto af = randFloat(n, -2, 2, 63);
        float* ga = toGm(h, af);
        float* gb = h.gm<float>(n);
        uint8_t* gm = h.gm<uint8_t>(n / 8);
        float* go = h.gm<float>(n);
        apik::CmpSelJob s{n, CM::GT, true, 0.5f, AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE};
        ICPU_RUN_KF(apik::cmpsel_kernel<float>, 1, (GM_ADDR)ga, (GM_ADDR)gb, (GM_ADDR)gm, (GM_ADDR)go, s);
        EXPECT_CLEAN(h);
        for (uint32_t i = 0; i < n; ++i) {
            QCOMPARE(bool((gm[i / 8] >> (i % 8)) & 1), af[i] > 0.5f);
            QCOMPARE(go[i], std::max(af[i], 0.5f));
        }
    }

    void selectModes() {
        NpuHarness h;
        const uint32_t n = 256;  // float: 4 repeats of 64
        auto a = randFloat(n, 0, 1, 64), b = randFloat(n, -1, 0, 65);
        std::vector<uint8_t> bits(n / 8);
        std::mt19937 rng(66);
        for (auto& v : bits) v = uint8_t(rng());
        auto run = [&](AscendC::SELMODE mode) {
            float* go = h.gm<float>(n);
            ICPU_RUN_KF(apik::select_kernel<float>, 1, (GM_ADDR)toGm(h, a), (GM_ADDR)toGm(h, b),
                        (GM_ADDR)toGm(h, bits), (GM_ADDR)go, n, mode);
            return std::vector<float>(go, go + n);
        };
        // Mode 2 consumes the mask continuously: bit i selects element i.
        auto t = run(AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE);
        EXPECT_CLEAN(h);
        for (uint32_t i = 0; i < n; ++i) QCOMPARE(t[i], (bits[i / 8] >> (i % 8)) & 1 ? a[i] : b[i]);
        // Mode 0 uses the same first 256/sizeof(T) bits for every repeat.
        auto z = run(AscendC::SELMODE::VSEL_CMPMASK_SPR);
        EXPECT_CLEAN(h);
        for (uint32_t i = 0; i < n; ++i) {
            uint32_t bit = i % 64;
            QCOMPARE(z[i], (bits[bit / 8] >> (bit % 8)) & 1 ? a[i] : b[i]);
        }
    }

    // ================================ synchronisation ==========================================

    void setFlagWaitFlagMakesTBufKernelRaceFree() {
        NpuHarness h;
        const uint32_t tile = 1024, tiles = 4;
        auto x = randFloat(tile * tiles, -10, 10, 67);
        float* gx = toGm(h, x);
        float* gy = h.gm<float>(tile * tiles);
        ICPU_RUN_KF(apik::tbuf_sync_kernel, 1, (GM_ADDR)gx, (GM_ADDR)gy, tile, tiles, 0);
        EXPECT_CLEAN(h);
        for (uint32_t i = 0; i < tile * tiles; ++i) QCOMPARE(gy[i], x[i] + 1.0f);
        // The vector add of a tile starts only after its copy-in finished.
        std::vector<const sage::npu::TimelineEvent*> in, add;
        for (const auto& e : h.last().events) {
            if (std::string(e.op) == "DataCopy GM->UB") in.push_back(&e);
            if (std::string(e.op) == "Adds") add.push_back(&e);
        }
        QCOMPARE(in.size(), size_t(tiles));
        QCOMPARE(add.size(), size_t(tiles));
        for (uint32_t t = 0; t < tiles; ++t) QVERIFY(add[t]->start >= in[t]->end);
        for (uint32_t t = 1; t < tiles; ++t) QVERIFY(in[t]->start >= add[t - 1]->end);  // WAR edge V -> MTE2
    }

    void missingFlagIsReportedAsRace() {
        NpuHarness h;
        float* gx = h.gm<float>(2048);
        float* gy = h.gm<float>(2048);
        ICPU_RUN_KF(apik::tbuf_sync_kernel, 1, (GM_ADDR)gx, (GM_ADDR)gy, 1024u, 2u, 2);
        const auto* d = h.find("race_raw");
        QVERIFY2(d, h.describe().c_str());
        QCOMPARE(d->line, lineOf(d->file.c_str(), "Adds(out, in, 1.0f"));
        QCOMPARE(d->otherLine, lineOf(d->file.c_str(), "DataCopy(in, xGm[t * tile], tile)"));
        QCOMPARE(d->pipe, std::string("V"));
        QCOMPARE(d->otherPipe, std::string("MTE2"));
    }

    void pipeBarrierAllIsRaceFree() {
        NpuHarness h;
        auto x = randFloat(2048, -10, 10, 68);
        float* gx = toGm(h, x);
        float* gy = h.gm<float>(2048);
        ICPU_RUN_KF(apik::tbuf_sync_kernel, 1, (GM_ADDR)gx, (GM_ADDR)gy, 512u, 4u, 1);
        EXPECT_CLEAN(h);
        for (uint32_t i = 0; i < 2048; ++i) QCOMPARE(gy[i], x[i] + 1.0f);
    }

    // ================================ scalar access, tiling ====================================

    void getValueSetValue() {
        NpuHarness h;
        const uint32_t n = 64;
        auto x = randFloat(n, -10, 10, 69);
        float* gx = toGm(h, x);
        float* gy = h.gm<float>(n);
        float* gz = h.gm<float>(n);
        ICPU_RUN_KF(apik::scalar_access_kernel, 1, (GM_ADDR)gx, (GM_ADDR)gy, (GM_ADDR)gz, n, 24u);
        EXPECT_CLEAN(h);
        for (uint32_t i = 0; i < n; ++i) {
            QCOMPARE(gy[i], i < 24 ? 2.0f * x[i] + 1.0f : -1.0f);
            QCOMPARE(gz[i], x[i] - 1.0f);
        }
    }

    void tilingDataAndTilingKey() {
        NpuHarness h;
        const uint32_t blocks = 4, blockLen = 256;
        auto x = randFloat(blocks * blockLen, -10, 10, 70);
        float* gx = toGm(h, x);
        auto* td = reinterpret_cast<apik::TilingData*>(AscendC::GmAlloc(sizeof(apik::TilingData)));
        *td = {blocks * blockLen, blockLen, 3.0f};
        uint8_t* ws = AscendC::GmAlloc(64);
        for (uint64_t key : {1ull, 2ull, 7ull}) {
            h.sim.setTilingKey(key);
            float* gy = h.gm<float>(blocks * blockLen);
            ICPU_RUN_KF(apik::tiling_kernel, blocks, (GM_ADDR)gx, (GM_ADDR)gy, ws, (GM_ADDR)td);
            EXPECT_CLEAN(h);
            QCOMPARE(h.last().coresUsed, blocks);
            for (uint32_t i = 0; i < blocks * blockLen; ++i)
                QCOMPARE(gy[i], key == 1 ? x[i] * 3.0f : key == 2 ? x[i] + 3.0f : x[i]);
        }
        // A wrong tiling makes the kernel's ASSERT fire at its line.
        td->totalLength = 5;
        ICPU_RUN_KF(apik::tiling_kernel, blocks, (GM_ADDR)gx, (GM_ADDR)h.gm<float>(1024), ws, (GM_ADDR)td);
        QVERIFY(h.find("assert_failed"));
        QVERIFY(h.last().aborted);
    }

    void tik2AliasAndTilingStruct() {
        NpuHarness h;
        auto x = randInt(64, -100000, 100000, 71);
        int32_t* gx = toGm(h, x);
        int32_t* gy = h.gm<int32_t>(64);
        auto* td = reinterpret_cast<apik::ShiftTiling*>(AscendC::GmAlloc(sizeof(apik::ShiftTiling)));
        *td = {64, -77};
        ICPU_RUN_KF(apik::tik2_tiling_kernel, 1, (GM_ADDR)gx, (GM_ADDR)gy, (GM_ADDR)td);
        EXPECT_CLEAN(h);
        for (int i = 0; i < 64; ++i) QCOMPARE(gy[i], x[size_t(i)] - 77);
    }

    // ================================ cube ======================================================

    // ================================ the documented examples ==================================

    void docExampleAxpy() {
        for (uint32_t n : {40u, 8192u * 3, 300007u}) {
            NpuHarness h;
            auto x = randHalf(n, -4, 4, 80), y = randHalf(n, -4, 4, 81);
            half* z = h.gm<half>(n);
            TestHostContext ctx(h);
            ctx.tensor("x", toGm(h, x), {int64_t(n)});
            ctx.tensor("y", toGm(h, y), {int64_t(n)});
            ctx.tensor("z", z, {int64_t(n)});
            ctx.setAttr("alpha", 0.37);
            example_axpy::host_launch(ctx);
            EXPECT_CLEAN(h);
            const double alpha = hv(H(double(0.37f)));
            for (uint32_t i = 0; i < n; ++i)
                EXPECT_HALF(z[i], refHalfBits(double(roundHalf(alpha * hv(x[i]))) + hv(y[i])),
                            QString("n %1 element %2").arg(n).arg(i));
            QCOMPARE(h.last().gmBytesRead, uint64_t(4) * n);
            QCOMPARE(h.last().gmBytesWritten, uint64_t(2) * n);
        }
    }

    void docExampleRowSum() {
        const std::pair<uint32_t, uint32_t> shapes[] = {{37, 5}, {100, 64}, {300, 200}, {7, 1000}, {5, 2040}, {1, 3}};
        for (auto [rows, cols] : shapes) {
            NpuHarness h;
            auto x = randFloat(size_t(rows) * cols, -1, 1, 82);
            float* y = h.gm<float>(rows);
            TestHostContext ctx(h);
            ctx.tensor("x", toGm(h, x), {int64_t(rows), int64_t(cols)});
            ctx.tensor("y", y, {int64_t(rows)});
            example_row_sum::host_launch(ctx);
            EXPECT_CLEAN(h);
            const uint32_t lanes = std::min(cols, 64u);
            for (uint32_t r = 0; r < rows; ++r) {
                const float* row = &x[size_t(r) * cols];
                std::vector<float> acc(row, row + lanes);  // columns 64.. folded onto the first 64
                for (uint32_t c = 64; c < cols; c += 64)
                    for (uint32_t j = 0; j < std::min(64u, cols - c); ++j) acc[j] = acc[j] + row[c + j];
                const float expect = treeSumFloat(acc.data(), lanes);
                QVERIFY2(std::bit_cast<uint32_t>(y[r]) == std::bit_cast<uint32_t>(expect),
                         qPrintable(QString("%1 x %2, row %3: got %4 expected %5").arg(rows).arg(cols).arg(r)
                                        .arg(y[r]).arg(expect)));
            }
        }
    }

    void gemmFp16() {
        struct Case { uint16_t M, K, N, split; bool integers; bool halfOut; };
        const Case cases[] = {
            {32, 64, 48, 1, true, false},   // exact: small integers, fp32 accumulation is exact
            {32, 64, 48, 1, false, false},  // random reals
            {20, 40, 40, 1, true, false},   // no dimension a multiple of 16
            {20, 40, 40, 1, false, false},
            {32, 64, 48, 2, false, false},  // accumulate two K halves in CO1 (cmatrixInitVal=false)
            {48, 32, 16, 1, true, true},    // Fixpipe F322F16 into a half C
        };
        for (const auto& cs : cases) {
            NpuHarness h;
            auto a = cs.integers ? std::vector<half>() : randHalf(size_t(cs.M) * cs.K, -1, 1, 72);
            auto b = cs.integers ? std::vector<half>() : randHalf(size_t(cs.K) * cs.N, -1, 1, 73);
            if (cs.integers) {
                auto ai = randInt(size_t(cs.M) * cs.K, -4, 4, 74), bi = randInt(size_t(cs.K) * cs.N, -4, 4, 75);
                for (int v : ai) a.push_back(H(v));
                for (int v : bi) b.push_back(H(v));
            }
            half* ga = toGm(h, a);
            half* gb = toGm(h, b);
            const size_t mn = size_t(cs.M) * cs.N;
            float* gcf = cs.halfOut ? nullptr : h.gm<float>(mn);
            half* gch = cs.halfOut ? h.gm<half>(mn) : nullptr;
            apik::GemmShape s{cs.M, cs.K, cs.N, cs.split, cs.halfOut};
            GM_ADDR gc = cs.halfOut ? (GM_ADDR)gch : (GM_ADDR)gcf;
            ICPU_RUN_KF(apik::gemm_kernel, 1, (GM_ADDR)ga, (GM_ADDR)gb, gc, s);
            EXPECT_CLEAN(h);
            QVERIFY(h.last().cubeKernel);
            const uint64_t mb = (cs.M + 15) / 16, kb = (cs.K + 15) / 16, nb = (cs.N + 15) / 16;
            QCOMPARE(h.last().cubeFractals, mb * kb * nb);
            for (uint32_t m = 0; m < cs.M; ++m)
                for (uint32_t n = 0; n < cs.N; ++n) {
                    float acc = 0;
                    double mag = 0;
                    for (uint32_t k = 0; k < cs.K; ++k) {
                        float p = hv(a[m * cs.K + k]) * hv(b[k * cs.N + n]);  // exact in float
                        acc += p;
                        mag += std::fabs(p);
                    }
                    const QString where = QString("M%1 K%2 N%3 split %4 at (%5, %6)").arg(cs.M).arg(cs.K).arg(cs.N)
                                              .arg(cs.split).arg(m).arg(n);
                    if (cs.halfOut) {
                        EXPECT_HALF(gch[m * cs.N + n], refHalfBits(acc), where);
                    } else if (cs.integers) {
                        QVERIFY2(gcf[m * cs.N + n] == acc, qPrintable(where));
                    } else {
                        QVERIFY2(std::fabs(gcf[m * cs.N + n] - acc) <= 1e-5 * mag + 1e-6,
                                 qPrintable(where + QString(": got %1 want %2").arg(gcf[m * cs.N + n]).arg(acc)));
                    }
                }
        }
    }
};

QTEST_MAIN(TestNpuApi)
#include "test_npu_api.moc"
