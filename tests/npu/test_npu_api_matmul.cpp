// The high-level Matmul API and the math library (issue 13, part 3) against plain C++.
#include "NpuHarness.h"
#include "lib/matmul_intf.h"  // before the kernels' namespace, as kernel_operator.h is

#include <cmath>
#include <cstring>

namespace mm {
#include "kernels/api/matmul_kernels.cpp"
}

namespace {

TCubeTiling tilingFor(int M, int N, int K, int coreM, int baseM, int baseN, bool bias) {
    TCubeTiling t;
    t.usedCoreNum = (M + coreM - 1) / coreM;
    t.M = M, t.N = N, t.Ka = K, t.Kb = K;
    t.singleCoreM = coreM, t.singleCoreN = N, t.singleCoreK = K;
    t.baseM = baseM, t.baseN = baseN, t.baseK = 16;
    t.isBias = bias ? 1 : 0;
    return t;
}

// C = A x B (+ bias) with the half inputs widened to float and a float accumulator.
std::vector<float> reference(const half* a, const half* b, const float* bias, int M, int N, int K, bool transB) {
    std::vector<float> c(size_t(M) * N);
    for (int m = 0; m < M; ++m)
        for (int n = 0; n < N; ++n) {
            float acc = 0;
            for (int k = 0; k < K; ++k)
                acc += float(a[m * K + k]) * float(transB ? b[n * K + k] : b[k * N + n]);
            c[size_t(m) * N + n] = acc + (bias ? bias[n] : 0.0f);
        }
    return c;
}

} // namespace

class TestNpuApiMatmul : public QObject {
    Q_OBJECT
private:
    void runAll(bool transB, bool useIterate, bool bias, int blocks) {
        NpuHarness h;
        const int M = 40, N = 48, K = 40, coreM = (M + blocks - 1) / blocks;
        half* a = h.gmRandom<half>(size_t(M) * K, -2, 2, 1);
        half* b = h.gmRandom<half>(size_t(K) * N, -2, 2, 2);
        float* bi = h.gmRandom<float>(N, -1, 1, 3);
        float* c = h.gm<float>(size_t(M) * N);
        auto* tg = h.gm<uint8_t>(sizeof(TCubeTiling));
        TCubeTiling t = tilingFor(M, N, K, coreM, 16, 32, bias);
        std::memcpy(tg, &t, sizeof(t));
        ICPU_RUN_KF(mm::matmul_all_kernel, uint32_t(blocks), (GM_ADDR)a, (GM_ADDR)b, (GM_ADDR)bi, (GM_ADDR)c,
                    (GM_ADDR)tg, uint32_t(transB), uint32_t(useIterate));
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        auto ref = reference(a, b, bias ? bi : nullptr, M, N, K, transB);
        for (int i = 0; i < M * N; ++i) QVERIFY2(std::fabs(c[i] - ref[i]) <= 1e-4f * (1 + std::fabs(ref[i])),
                                                 qPrintable(QString("C[%1] = %2, expected %3").arg(i).arg(c[i]).arg(ref[i])));
        // Every 16x16x16 fractal of every block is charged on the cube: blocks of 16 x 32 (or the
        // 8-row / 16-column tails) over K = 40 (3 k-steps of 16).
        QVERIFY(h.last().cubeKernel);
        uint64_t fractals = 0;
        for (int core = 0; core < blocks; ++core) {
            int rows = std::min(coreM, M - core * coreM);
            for (int m0 = 0; m0 < rows; m0 += 16)
                for (int n0 = 0; n0 < N; n0 += 32)
                    fractals += uint64_t((std::min(16, rows - m0) + 15) / 16) * ((std::min(32, N - n0) + 15) / 16) * 3;
        }
        QCOMPARE(h.last().cubeFractals, fractals);
    }

private slots:
    void iterateAllWithBias() { runAll(false, false, true, 1); }
    void iterateAndGetTensorCWithTransposedB() { runAll(true, true, false, 1); }
    void tailBlockOnTheLastCore() { runAll(false, false, true, 3); }
    void localResultFeedsTheVectorUnit() {
        NpuHarness h;
        const int M = 16, N = 32, K = 24;
        half* a = h.gmRandom<half>(size_t(M) * K, -1, 1, 4);
        half* b = h.gmRandom<half>(size_t(K) * N, -1, 1, 5);
        float* c = h.gm<float>(size_t(M) * N);
        auto* tg = h.gm<uint8_t>(sizeof(TCubeTiling));
        TCubeTiling t = tilingFor(M, N, K, M, 16, 16, false);
        std::memcpy(tg, &t, sizeof(t));
        ICPU_RUN_KF(mm::matmul_ub_kernel, 1, (GM_ADDR)a, (GM_ADDR)b, (GM_ADDR)c, (GM_ADDR)tg);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        auto ref = reference(a, b, nullptr, M, N, K, false);
        for (int i = 0; i < M * N; ++i) QVERIFY(std::fabs(c[i] - 2 * ref[i]) <= 1e-4f * (1 + std::fabs(ref[i])));
    }
    void missingOperandIsReportedAtTheCall() {
        NpuHarness h;
        half* b = h.gm<half>(256);
        float* c = h.gm<float>(256);
        auto* tg = h.gm<uint8_t>(sizeof(TCubeTiling));
        TCubeTiling t = tilingFor(16, 16, 16, 16, 16, 16, false);
        std::memcpy(tg, &t, sizeof(t));
        ICPU_RUN_KF(mm::matmul_missing_a_kernel, 1, (GM_ADDR)b, (GM_ADDR)c, (GM_ADDR)tg);
        const auto* d = h.find("matmul_operand_missing");
        QVERIFY2(d, h.describe().c_str());
        QVERIFY(d->message.find("SetTensorA") != std::string::npos);
        QCOMPARE(d->line, lineOf(d->file.c_str(), "MISSING_A"));
    }
    void mathLibraryFunctions() {
        NpuHarness h;
        const uint32_t n = 64;
        float* x = h.gmRandom<float>(n, -0.9f, 0.9f, 6);
        float* y = h.gmRandom<float>(n, 0.5f, 3.0f, 7);
        float* out = h.gm<float>(8 * n);
        ICPU_RUN_KF(mm::math_kernel, 1, (GM_ADDR)x, (GM_ADDR)y, (GM_ADDR)out, n);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (uint32_t i = 0; i < n; ++i) {
            const float v = x[i], w = y[i];
            const float expect[8] = {std::sin(v), std::cos(v), std::asin(v), std::atan(v), std::erf(v),
                                     std::pow(w, v), std::pow(w, 3.0f), std::pow(2.0f, v)};
            for (int f = 0; f < 8; ++f)
                QVERIFY2(std::fabs(out[f * n + i] - expect[f]) <= 1e-6f * (1 + std::fabs(expect[f])),
                         qPrintable(QString("function %1 at x = %2: %3, expected %4").arg(f).arg(v).arg(out[f * n + i]).arg(expect[f])));
        }
    }
};

QTEST_MAIN(TestNpuApiMatmul)
#include "test_npu_api_matmul.moc"
