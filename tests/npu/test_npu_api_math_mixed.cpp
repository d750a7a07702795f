// The math and activation library functions with operands of mixed kinds (kernel_vec_math_mixed.h):
// values against plain C++, and an operand shorter than the count reported, not read past.
#include "NpuHarness.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace mixed {
#include "kernels/api/math_mixed_kernels.cpp"
}

namespace {

double sigmoid(double v) { return 1.0 / (1.0 + std::exp(-v)); }
double gelu(double v) { return 0.5 * v * (1 + std::tanh(0.7978845608028654 * (v + 0.044715 * v * v * v))); }

} // namespace

class TestNpuApiMathMixed : public QObject {
    Q_OBJECT
private slots:
    void floatFunctionsMatchPlainCpp() {
        NpuHarness h;
        const uint32_t n = 64;
        float* x = h.gmRandom<float>(n, -3.0f, 3.0f, 11);
        float* y = h.gmRandom<float>(n, 0.5f, 2.0f, 12);
        float* z = h.gmRandom<float>(n, -1.0f, 1.0f, 13);
        float* out = h.gm<float>(12 * n);
        ICPU_RUN_KF(mixed::mixed_float_kernel, 1, (GM_ADDR)x, (GM_ADDR)y, (GM_ADDR)z, (GM_ADDR)out, n);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (uint32_t i = 0; i < n; ++i) {
            const double v = x[i], w = y[i], u = z[i];
            const double expect[12] = {v * w + u,
                                       std::min(std::max(v, w), 0.25),
                                       std::min(std::max(v, -0.5), u),
                                       i % 3 == 0 ? v : 7.0,
                                       std::fmod(double(x[i]), double(y[i])),
                                       v - std::trunc(v),
                                       std::nearbyint(v),
                                       v * sigmoid(1.5 * v),
                                       v * w * sigmoid(0.75 * w),
                                       v * gelu(w),
                                       std::max(v, double(0.1f)),
                                       2.0 + 0.5 * i};
            for (int f = 0; f < 12; ++f)
                QVERIFY2(std::fabs(out[f * n + i] - expect[f]) <= 1e-6 * (1 + std::fabs(expect[f])),
                         qPrintable(QString("function %1 at x = %2, y = %3: %4, expected %5")
                                        .arg(f).arg(v).arg(w).arg(out[f * n + i]).arg(expect[f])));
        }
    }
    void integerAndPredicateFunctionsMatchPlainCpp() {
        NpuHarness h;
        const uint32_t n = 64;
        int32_t* a = h.gm<int32_t>(n);
        int32_t* b = h.gm<int32_t>(n);
        float* f = h.gmRandom<float>(n, -5.0f, 5.0f, 14);
        for (uint32_t i = 0; i < n; ++i) {
            a[i] = int32_t(i * 2654435761u);
            b[i] = i % 4 == 0 ? 0 : int32_t(i * 40503u) - 1000;
        }
        f[3] = std::numeric_limits<float>::infinity();
        f[9] = std::numeric_limits<float>::quiet_NaN();
        f[20] = -std::numeric_limits<float>::infinity();
        uint8_t* out = h.gm<uint8_t>(2 * n * sizeof(int32_t) + 2 * n);
        ICPU_RUN_KF(mixed::mixed_int_kernel, 1, (GM_ADDR)a, (GM_ADDR)b, (GM_ADDR)f, (GM_ADDR)out, n);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        const auto* words = reinterpret_cast<const int32_t*>(out);
        const uint8_t* bytes = out + 2 * n * sizeof(int32_t);
        for (uint32_t i = 0; i < n; ++i) {
            QCOMPARE(words[i], a[i] ^ b[i]);
            QCOMPARE(words[n + i], a[i] & b[i]);
            QCOMPARE(int(bytes[i]), (a[i] != 0 && b[i] != 0) ? 1 : 0);
            QCOMPARE(int(bytes[n + i]), std::isfinite(f[i]) ? 1 : 0);
        }
    }
    void operandShorterThanCountIsReported() {
        NpuHarness h;
        const uint32_t n = 64;
        float* out = h.gm<float>(n);
        ICPU_RUN_KF(mixed::mixed_overrun_kernel, 1, (GM_ADDR)out, n);
        const auto* d = h.find("vector_count_exceeds_tensor");
        QVERIFY2(d != nullptr, h.describe().c_str());
        QVERIFY2(d->message.find("Fma") != std::string::npos, d->message.c_str());
    }
};

QTEST_MAIN(TestNpuApiMathMixed)
#include "test_npu_api_math_mixed.moc"
