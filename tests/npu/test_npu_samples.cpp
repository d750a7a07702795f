// Kernels written the way engineers write their own (compile-time sizes, tiling by value, TBuf
// scratch, ASSERT) compile unmodified and give the right results. Both kernels are our own text;
// the leaky one is the eval fixture's baseline, so the two suites test the same file.
#include "NpuHarness.h"

namespace add_sample {
#include "kernels/half_add_fixed.cpp"
}
namespace leaky_sample {
#include "../eval/data/tasks/leaky_sample/baseline.cpp"
}

class TestNpuSamples : public QObject {
    Q_OBJECT
private slots:
    void fixedSizeAddMatchesPlainCpp() {
        NpuHarness h;
        const size_t n = add_sample::fixed_add::kElems;
        half* x = h.gmRandom<half>(n, -10, 10, 1);
        half* y = h.gmRandom<half>(n, -10, 10, 2);
        half* z = h.gm<half>(n);
        ICPU_RUN_KF(add_sample::half_add_fixed, add_sample::fixed_add::kBlocks, (GM_ADDR)x, (GM_ADDR)y, (GM_ADDR)z);
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
        leaky_sample::LeakyArgs t{n, 512, 0.1f};
        ICPU_RUN_KF(leaky_sample::leaky_by_max, 8, (GM_ADDR)x, (GM_ADDR)y, t);
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
