// Shared by the API-group suites (test_npu_api_*.cpp): reference numerics computed independently
// of the simulator, GM helpers, and launch helpers for the generic vector/cast test kernels.
#pragma once

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


namespace {


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

} // namespace
