// The vector library APIs and small helpers real op kernels use (issue 13, part 3) against plain C++.
#include "NpuHarness.h"

#include <cmath>

namespace lib {
#include "kernels/api/lib_kernels.cpp"
}

class TestNpuApiLib : public QObject {
    Q_OBJECT
private slots:
    void gatherMaskBuiltinPatternTakesEvenElements() {
        NpuHarness h;
        float* in = h.gmRandom<float>(64, -5, 5, 1);
        float* out = h.gm<float>(64);
        uint32_t* cnt = h.gm<uint32_t>(1);
        ICPU_RUN_KF(lib::gathermask_builtin_kernel, 1, (GM_ADDR)in, (GM_ADDR)out, (GM_ADDR)cnt);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        QCOMPARE(cnt[0], 32u);
        for (int i = 0; i < 32; ++i) QCOMPARE(out[i], in[2 * i]);
        for (int i = 32; i < 64; ++i) QCOMPARE(out[i], 0.0f);  // untouched
    }
    void gatherMaskBitTensorInCounterMode() {
        NpuHarness h;
        float* in = h.gmRandom<float>(64, -5, 5, 2);
        uint32_t* bits = h.gm<uint32_t>(8);
        bits[0] = 0x8000'0013u;  // elements 0, 1, 4, 31
        bits[1] = 0x0000'0101u;  // elements 32, 40 (beyond count 36: 40 is left out)
        float* out = h.gm<float>(64);
        uint32_t* cnt = h.gm<uint32_t>(1);
        ICPU_RUN_KF(lib::gathermask_tensor_kernel, 1, (GM_ADDR)in, (GM_ADDR)bits, (GM_ADDR)out, (GM_ADDR)cnt, 36u);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        QCOMPARE(cnt[0], 5u);
        const int picked[5] = {0, 1, 4, 31, 32};
        for (int i = 0; i < 5; ++i) QCOMPARE(out[i], in[picked[i]]);
    }
    void copyHonoursMaskAndRepeats() {
        NpuHarness h;
        float* in = h.gmRandom<float>(128, -5, 5, 3);
        float* out = h.gm<float>(128);
        for (int i = 0; i < 128; ++i) out[i] = -100.0f;
        ICPU_RUN_KF(lib::copy_kernel, 1, (GM_ADDR)in, (GM_ADDR)out);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (int i = 0; i < 128; ++i) QCOMPARE(out[i], (i % 64) < 32 ? in[i] : -100.0f);
    }
    void indexFills() {
        NpuHarness h;
        float* in = h.gm<float>(64);
        float* out = h.gm<float>(128);
        ICPU_RUN_KF(lib::index_kernel, 1, (GM_ADDR)in, (GM_ADDR)out);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        const int32_t* idx = reinterpret_cast<const int32_t*>(out + 64);
        for (int i = 0; i < 64; ++i) {
            QCOMPARE(out[i], 5.0f + 0.5f * float(i));
            QCOMPARE(idx[i], 3 + i);
        }
    }
    void broadcastAlongEitherAxis() {
        NpuHarness h;
        float* in = h.gmRandom<float>(8, -5, 5, 4);
        float* out = h.gm<float>(128);
        ICPU_RUN_KF(lib::broadcast_kernel, 1, (GM_ADDR)in, (GM_ADDR)out);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (int r = 0; r < 8; ++r)
            for (int c = 0; c < 8; ++c) {
                QCOMPARE(out[r * 8 + c], in[r]);
                QCOMPARE(out[64 + r * 8 + c], in[c]);
            }
    }
    void sumAndMeanOfPaddedRows() {
        NpuHarness h;
        float* in = h.gmRandom<float>(64, -5, 5, 5);
        float* out = h.gm<float>(16);
        ICPU_RUN_KF(lib::sum_mean_kernel, 1, (GM_ADDR)in, (GM_ADDR)out);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (int r = 0; r < 4; ++r) {
            float s = 0;
            for (int i = 0; i < 12; ++i) s += in[r * 16 + i];
            QVERIFY(std::fabs(out[r] - s) <= 1e-5f * (1 + std::fabs(s)));
            QVERIFY(std::fabs(out[8 + r] - s / 12) <= 1e-5f * (1 + std::fabs(s)));
        }
    }
    void counterModeThroughAscendCUtils() {
        NpuHarness h;
        float* in = h.gmRandom<float>(256, -5, 5, 6);
        float* out = h.gm<float>(256);
        ICPU_RUN_KF(lib::counter_mask_kernel, 1, (GM_ADDR)in, (GM_ADDR)out, 100u);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (int i = 0; i < 256; ++i) QCOMPARE(out[i], i < 100 ? in[i] + 1.0f : in[i]);
    }
    void globalMemoryFills() {
        NpuHarness h;
        float* y = h.gm<float>(100);
        int32_t* z = h.gm<int32_t>(100);
        float* w = h.gm<float>(1);
        for (int i = 0; i < 100; ++i) z[i] = 7;
        ICPU_RUN_KF(lib::init_gm_kernel, 1, (GM_ADDR)y, (GM_ADDR)z, (GM_ADDR)w, 100u, 1.3f);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (int i = 0; i < 100; ++i) {
            QCOMPARE(y[i], 1.3f);
            QCOMPARE(z[i], 0);
        }
        QCOMPARE(w[0], float(bfloat16_t(1.3f)));
        QVERIFY(w[0] != 1.3f);  // the round trip went through bfloat16
    }
    void globalMemoryFillPastTheEndIsAnError() {
        NpuHarness h;
        float* y = h.gm<float>(100);
        int32_t* z = h.gm<int32_t>(100);
        float* w = h.gm<float>(1);
        ICPU_RUN_KF(lib::init_gm_kernel, 1, (GM_ADDR)y, (GM_ADDR)z, (GM_ADDR)w, 120u, 1.0f);
        QVERIFY2(h.find("gm_out_of_bounds"), h.describe().c_str());
    }
    void deqScaleAppliesToInt32ToHalf() {
        NpuHarness h;
        int32_t* in = h.gm<int32_t>(64);
        for (int i = 0; i < 64; ++i) in[i] = i * 37 - 1000;
        half* out = h.gm<half>(64);
        ICPU_RUN_KF(lib::deq_kernel, 1, (GM_ADDR)in, (GM_ADDR)out, 0.25f);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (int i = 0; i < 64; ++i) QCOMPARE(float(out[i]), float(half(float(in[i]) * 0.25f)));
    }
    void transDataTo5HDTransposesBlocks() {
        NpuHarness h;
        half* ih = h.gmRandom<half>(256, -5, 5, 8);
        half* oh = h.gm<half>(256);
        float* inF = h.gmRandom<float>(128, -5, 5, 9);
        float* outF = h.gm<float>(128);
        ICPU_RUN_KF(lib::trans5hd_kernel, 1, (GM_ADDR)ih, (GM_ADDR)oh, (GM_ADDR)inF, (GM_ADDR)outF);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (int r = 0; r < 16; ++r)
            for (int c = 0; c < 16; ++c) QCOMPARE(float(oh[c * 16 + r]), float(ih[r * 16 + c]));
        // 16 source blocks of 8 floats: element j of block i lands at position i of row j (16 wide).
        for (int i = 0; i < 16; ++i)
            for (int j = 0; j < 8; ++j) QCOMPARE(outF[j * 16 + i], inF[i * 8 + j]);
    }
    void pairReduceSumPerRepeat() {
        NpuHarness h;
        float* in = h.gmRandom<float>(128, -5, 5, 10);
        float* out = h.gm<float>(64);
        for (int i = 0; i < 64; ++i) out[i] = -100.0f;
        ICPU_RUN_KF(lib::pair_sum_kernel, 1, (GM_ADDR)in, (GM_ADDR)out);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (int r = 0; r < 2; ++r)
            for (int k = 0; k < 32; ++k) {
                const float expect = k < 20 ? in[r * 64 + 2 * k] + in[r * 64 + 2 * k + 1] : -100.0f;
                QCOMPARE(out[r * 32 + k], expect);
            }
    }
    void apisBindToFunctionPointers() {
        NpuHarness h;
        float* in = h.gmRandom<float>(128, 0.5f, 3, 11);
        float* out = h.gm<float>(128);
        ICPU_RUN_KF(lib::pointer_ops_kernel, 1, (GM_ADDR)in, (GM_ADDR)out);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (int i = 0; i < 64; ++i) {
            QCOMPARE(out[i], in[i] / in[64 + i]);
            QCOMPARE(out[64 + i], std::sin(in[i]));
        }
    }
};

QTEST_MAIN(TestNpuApiLib)
#include "test_npu_api_lib.moc"
