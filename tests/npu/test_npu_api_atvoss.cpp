// The atvoss vector operator templates (core/npu/include/atvoss): operators written as a DAG and
// run by the elementwise, broadcast and reduce schedules on the simulated device, against plain
// C++; lengths that are not a multiple of the tile, several blocks, and misuse.
#include "NpuHarness.h"

#include <cmath>
#include <cstring>

// The headers the kernels include, at global scope as in a kernel build (the kernels' own names
// go to namespace atv).
#include "atvoss/elewise/elewise_sch.h"
#include "atvoss/util/dag.h"

namespace atv {
#include "kernels/atvoss/elewise_kernels.cpp"
}

namespace {
float halfRound(float v) { return float(half(v)); }
} // namespace

class TestNpuApiAtvoss : public QObject {
    Q_OBJECT
private slots:
    void elementwiseAddScaleOverSeveralBlocksAndAPartialTile() {
        NpuHarness h;
        const uint32_t n = 10007;  // not a multiple of 32, of the tile or of the block share
        float* a = h.gmRandom<float>(n, -3, 3, 1);
        float* b = h.gmRandom<float>(n, -3, 3, 2);
        float* y = h.gm<float>(n);
        atv::AddScaleTiling t{};
        t.baseTiling.dim0 = n;
        t.baseTiling.blockFormer = 4000;  // three blocks: 4000, 4000, 2007
        t.baseTiling.ubFormer = 1000;     // several tiles per block, the last one partial
        t.alpha = 0.5f;
        ICPU_RUN_KF(atv::atvoss_add_scale<float>, 3, (GM_ADDR)a, (GM_ADDR)b, (GM_ADDR)y, t);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (uint32_t i = 0; i < n; ++i) QCOMPARE(y[i], (a[i] + b[i]) * 0.5f);
    }
    void elementwiseHalfInputsComputeInFloat() {
        NpuHarness h;
        const uint32_t n = 300;
        half* a = h.gm<half>(n);
        half* b = h.gm<half>(n);
        for (uint32_t i = 0; i < n; ++i) a[i] = half(0.01f * float(i)), b[i] = half(1.0f - 0.003f * float(i));
        half* y = h.gm<half>(n);
        atv::AddScaleTiling t{};
        t.baseTiling.dim0 = n;
        t.alpha = 3.0f;
        ICPU_RUN_KF(atv::atvoss_add_scale<half>, 1, (GM_ADDR)a, (GM_ADDR)b, (GM_ADDR)y, t);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (uint32_t i = 0; i < n; ++i) QCOMPARE(float(y[i]), halfRound((float(a[i]) + float(b[i])) * 3.0f));
    }
    void elementwiseTwoOutputsWithAConstantAndAByteOutput() {
        NpuHarness h;
        const uint32_t n = 77;
        float* x = h.gmRandom<float>(n, -2, 2, 3);
        float* y0 = h.gm<float>(n);
        uint8_t* y1 = h.gm<uint8_t>(n);
        Ops::Base::EleBaseTilingData t{};
        t.dim0 = n;
        ICPU_RUN_KF(atv::atvoss_abs_flag, 1, (GM_ADDR)x, (GM_ADDR)y0, (GM_ADDR)y1, t);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (uint32_t i = 0; i < n; ++i) {
            QCOMPARE(y0[i], std::fabs(x[i]));
            QCOMPARE(int(y1[i]), x[i] > 1.0f ? 1 : 0);
        }
    }
};

QTEST_GUILESS_MAIN(TestNpuApiAtvoss)
#include "test_npu_api_atvoss.moc"
