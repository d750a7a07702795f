// Small AscendC APIs real op kernels use (issue 13, part 3) against plain C++.
#include "NpuHarness.h"

#include <cmath>
#include <cstring>

namespace compat {
#include "kernels/api/compat_kernels.cpp"
}

namespace {
float roundToHalf(float v) { return float(half(v)); }
} // namespace

class TestNpuApiCompat : public QObject {
    Q_OBJECT
private slots:
    void axpyAndWorkspace() {
        NpuHarness h;
        half* x = h.gmRandom<half>(128, -4, 4, 11);
        half* y = h.gmRandom<half>(128, -4, 4, 12);
        float* yf = h.gmRandom<float>(128, -4, 4, 13);
        std::vector<float> y0(128), f0(128);
        for (int i = 0; i < 128; ++i) y0[i] = float(y[i]), f0[i] = yf[i];
        float* ws = h.gm<float>(128);
        ICPU_RUN_KF(compat::axpy_kernel, 1, (GM_ADDR)x, (GM_ADDR)y, (GM_ADDR)yf, (GM_ADDR)ws, 0.5f);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (int i = 0; i < 128; ++i) {
            const float prod = roundToHalf(float(x[i]) * 0.5f);
            QCOMPARE(float(y[i]), roundToHalf(y0[i] + prod));
            QCOMPARE(yf[i], f0[i] + prod);
            QCOMPARE(ws[i], yf[i]);  // GetUserWorkspace(w) == w: no system workspace in front
        }
    }
    void axpyWithoutWorkspaceReturnsEarly() {
        NpuHarness h;
        half* x = h.gm<half>(128);
        half* y = h.gm<half>(128);
        float* yf = h.gm<float>(128);
        ICPU_RUN_KF(compat::axpy_kernel, 1, (GM_ADDR)x, (GM_ADDR)y, (GM_ADDR)yf, (GM_ADDR) nullptr, 0.5f);
        QVERIFY(h.last().diagnostics.empty());
        QCOMPARE(h.last().vectorRepeats, uint64_t(0));
    }
    void gatherPermutes() {
        NpuHarness h;
        const uint32_t n = 64;
        float* src = h.gmRandom<float>(n, -9, 9, 21);
        uint32_t* off = h.gm<uint32_t>(n);
        for (uint32_t i = 0; i < n; ++i) off[i] = ((i * 37) % n) * 4;
        float* dst = h.gm<float>(n);
        ICPU_RUN_KF(compat::gather_kernel, 1, (GM_ADDR)src, (GM_ADDR)off, (GM_ADDR)dst, n);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (uint32_t i = 0; i < n; ++i) QCOMPARE(dst[i], src[(i * 37) % n]);
    }
    void gatherOffsetOutsideTheSourceIsAnError() {
        NpuHarness h;
        const uint32_t n = 64;
        float* src = h.gm<float>(n);
        uint32_t* off = h.gm<uint32_t>(n);
        off[5] = n * 4;  // one element past the end
        float* dst = h.gm<float>(n);
        ICPU_RUN_KF(compat::gather_kernel, 1, (GM_ADDR)src, (GM_ADDR)off, (GM_ADDR)dst, n);
        const auto* d = h.find("gather_offset_out_of_range");
        QVERIFY2(d, h.describe().c_str());
        QVERIFY(d->message.find("element 5") != std::string::npos);
    }
    void coreTypeAndBlockIndex() {
        for (uint32_t aicOnly : {0u, 1u}) {
            NpuHarness h;
            int32_t* out = h.gm<int32_t>(8);
            ICPU_RUN_KF(compat::core_type_kernel, 4, (GM_ADDR)out, aicOnly);
            QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
            for (int b = 0; b < 4; ++b) QCOMPARE(out[b], b * 10 + (aicOnly ? 1 : 2));
        }
    }
    void scalarGmAtomicsBypassAndUbSize() {
        NpuHarness h;
        uint32_t* counter = h.gm<uint32_t>(8);
        uint32_t* out = h.gm<uint32_t>(8);
        ICPU_RUN_KF(compat::scalar_gm_kernel, 4, (GM_ADDR)counter, (GM_ADDR)out);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        QCOMPARE(counter[0], 4u);                        // every block added one
        QVERIFY(counter[1] >= 100u && counter[1] < 104u);  // one block's swap won, the others saw it taken
        QCOMPARE(out[0], uint32_t(AscendC::TOTAL_UB_SIZE));
        QCOMPARE(out[1], uint32_t(AscendC::TOTAL_UB_SIZE));
        for (uint32_t b = 0; b < 4; ++b) QCOMPARE(out[2 + b], 7 * (b + 1));
        // A plain pointer past its allocation is caught by the GM check, not read.
        ICPU_RUN_KF(compat::scalar_gm_kernel, 1, (GM_ADDR)(counter + 1000000), (GM_ADDR)out);
        QVERIFY2(!h.last().diagnostics.empty(), "an atomic on an address outside every GM buffer was not reported");
    }
    void broadcastRow() {
        NpuHarness h;
        float* src = h.gmRandom<float>(16, -2, 2, 21);
        float* dst = h.gm<float>(64);
        ICPU_RUN_KF(compat::broadcast_row_kernel, 1, (GM_ADDR)src, (GM_ADDR)dst);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (int r = 0; r < 4; ++r)
            for (int c = 0; c < 16; ++c) QCOMPARE(dst[r * 16 + c], src[c]);
    }
    void scalarSqrt() { QCOMPARE(compat::scalarSqrtTwice(9.0f), 6.0f); }
    void tilingAccessorsRoundTrip() { QCOMPARE(compat::tilingRoundTrip(), 45u); }
    void elementAccessQueueFormsAndAssert() {
        NpuHarness h;
        float* in = h.gmRandom<float>(64, 0.5f, 4, 31);
        float* out = h.gm<float>(64);
        ICPU_RUN_KF(compat::element_access_kernel, 1, (GM_ADDR)in, (GM_ADDR)out);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (int i = 0; i < 64; ++i) {
            const float expect = i == 3 ? 7.0f : std::log(in[i == 1 ? 0 : i]);
            QCOMPARE(out[i], expect);
        }
    }
    void crossCoreFlagsAreUnsupported() {
        NpuHarness h;
        int32_t* out = h.gm<int32_t>(1);
        ICPU_RUN_KF(compat::cross_core_kernel, 1, (GM_ADDR)out);
        const auto* d = h.find("unsupported");
        QVERIFY2(d, h.describe().c_str());
        QCOMPARE(d->line, lineOf(d->file.c_str(), "CROSS_CORE_WAIT"));
        QCOMPARE(out[0], 1);  // the launch stopped at the call
    }
};

QTEST_MAIN(TestNpuApiCompat)
#include "test_npu_api_compat.moc"
