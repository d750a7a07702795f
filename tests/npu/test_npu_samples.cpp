// Public-sample-style kernels compile unmodified and give the right results.
#include "NpuHarness.h"

namespace add_sample {
#include "kernels/add_custom.cpp"
}
namespace leaky_sample {
#include "kernels/leaky_relu_custom.cpp"
}

class TestNpuSamples : public QObject {
    Q_OBJECT
private slots:
    void addCustomMatchesPlainCpp() {
        NpuHarness h;
        const size_t n = add_sample::TOTAL_LENGTH;
        half* x = h.gmRandom<half>(n, -10, 10, 1);
        half* y = h.gmRandom<half>(n, -10, 10, 2);
        half* z = h.gm<half>(n);
        ICPU_RUN_KF(add_sample::add_custom, add_sample::USE_CORE_NUM, (GM_ADDR)x, (GM_ADDR)y, (GM_ADDR)z);
        const auto& r = h.last();
        QVERIFY2(r.diagnostics.empty(), h.describe().c_str());
        QVERIFY(!r.aborted);
        for (size_t i = 0; i < n; ++i) QCOMPARE(z[i].bits, half(float(x[i]) + float(y[i])).bits);
        QCOMPARE(r.coresUsed, 8u);
        QVERIFY(r.totalCycles > r.launchOverheadCycles);
        QCOMPARE(r.gmBytesRead, uint64_t(2 * n * sizeof(half)));
        QCOMPARE(r.gmBytesWritten, uint64_t(n * sizeof(half)));
    }

    void leakyReluWithTBufMatchesPlainCpp() {
        NpuHarness h;
        const uint32_t n = 8 * 2048;
        half* x = h.gmRandom<half>(n, -5, 5, 3);
        half* y = h.gm<half>(n);
        leaky_sample::LeakyReluTilingData t{n, 8, 0.1f};
        ICPU_RUN_KF(leaky_sample::leaky_relu_custom, 8, (GM_ADDR)x, (GM_ADDR)y, t);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        const half slope(0.1f);
        for (uint32_t i = 0; i < n; ++i) {
            float xs = float(x[i]);
            float expect = std::max(xs, float(half(xs * float(slope))));
            QCOMPARE(float(y[i]), float(half(expect)));
        }
    }
};

QTEST_MAIN(TestNpuSamples)
#include "test_npu_samples.moc"
