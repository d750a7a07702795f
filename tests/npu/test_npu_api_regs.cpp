// Reductions in the mask + repeat form, RepeatReduceSum, the reduction registers (GetAccVal,
// GetReduceMaxMinCount) and Brcb (issue 13, part 3) against plain C++, with their bad inputs.
#include "NpuHarness.h"

#include <cmath>
#include <cstring>

namespace regs {
#include "kernels/api/regs_kernels.cpp"
}

namespace {
uint32_t bitsOf(float f) {
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
}
bool near(float a, double b) { return std::fabs(double(a) - b) <= 1e-5 * (1 + std::fabs(b)); }
} // namespace

class TestNpuApiRegs : public QObject {
    Q_OBJECT
private slots:
    void getAccValReadsTheLastReduceSum() {
        NpuHarness h;
        float* in = h.gmRandom<float>(200, -5, 5, 1);
        float* out = h.gm<float>(8);
        ICPU_RUN_KF(regs::acc_val_kernel, 1, (GM_ADDR)in, (GM_ADDR)out);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        double s = 0;
        for (int i = 0; i < 200; ++i) s += in[i];
        QVERIFY2(near(out[0], s), std::to_string(out[0]).c_str());
        QCOMPARE(bitsOf(out[1]), bitsOf(out[0]));  // the register holds exactly what dst got
        QCOMPARE(bitsOf(out[2]), bitsOf(out[0]));
    }
    void getAccValBeforeAnyReduceWarns() {
        NpuHarness h;
        float* in = h.gm<float>(8);
        float* out = h.gm<float>(8);
        ICPU_RUN_KF(regs::acc_unset_kernel, 1, (GM_ADDR)in, (GM_ADDR)out);
        const auto* d = h.find("reduce_register_unset");
        QVERIFY2(d, h.describe().c_str());
        QCOMPARE(d->severity, std::string("warning"));
        QCOMPARE(out[0], 1.0f);
    }
    void repeatReduceSumPerRepeat() {
        NpuHarness h;
        float* in = h.gmRandom<float>(192, -5, 5, 2);
        float* out = h.gm<float>(8);
        for (int i = 0; i < 8; ++i) out[i] = -100.0f;
        ICPU_RUN_KF(regs::repeat_reduce_sum_kernel, 1, (GM_ADDR)in, (GM_ADDR)out);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (int r = 0; r < 3; ++r) {
            double s = 0;
            for (int i = 0; i < 40; ++i) s += in[r * 64 + i];
            QVERIFY2(near(out[r], s), std::to_string(r).c_str());
        }
        QCOMPARE(out[3], -100.0f);
    }
    void reduceMaxRepeatFormWithBitMaskAndRegister() {
        NpuHarness h;
        float* in = h.gmRandom<float>(192, -5, 5, 3);
        in[130] = 9.0f;  // even: selected
        in[131] = 50.0f;  // odd: masked out
        float* out = h.gm<float>(8);
        ICPU_RUN_KF(regs::reduce_repeat_kernel, 1, (GM_ADDR)in, (GM_ADDR)out);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        QCOMPARE(out[0], 9.0f);
        QCOMPARE(bitsOf(out[1]), 130u);  // the index, as integer bits
        QCOMPARE(out[2], 9.0f);
        QCOMPARE(bitsOf(out[3]), 130u);
        int at = 64;
        for (int i = 64; i < 128; ++i)
            if (in[i] < in[at]) at = i;
        QCOMPARE(out[4], in[at]);
        QCOMPARE(bitsOf(out[5]), uint32_t(at - 64));  // WholeReduce indexes inside the repeat
    }
    void reduceSumRepeatFormContinuousMask() {
        NpuHarness h;
        float* in = h.gmRandom<float>(128, -5, 5, 4);
        float* out = h.gm<float>(8);
        ICPU_RUN_KF(regs::reduce_sum_repeat_kernel, 1, (GM_ADDR)in, (GM_ADDR)out);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        double s = 0;
        for (int r = 0; r < 2; ++r)
            for (int i = 0; i < 48; ++i) s += in[r * 64 + i];
        QVERIFY2(near(out[0], s), std::to_string(out[0]).c_str());
    }
    void reduceRepeatFormRejectsRepeatAbove255() {
        NpuHarness h;
        float* in = h.gm<float>(64);
        float* out = h.gm<float>(64);
        ICPU_RUN_KF(regs::reduce_too_many_repeats_kernel, 1, (GM_ADDR)in, (GM_ADDR)out);
        QVERIFY2(h.find("repeat_exceeds_255"), h.describe().c_str());
    }
    void brcbFillsOneBlockPerElement() {
        NpuHarness h;
        float* in = h.gmRandom<float>(16, -5, 5, 5);
        float* out = h.gm<float>(128);
        ICPU_RUN_KF(regs::brcb_kernel, 1, (GM_ADDR)in, (GM_ADDR)out);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (int r = 0; r < 2; ++r)
            for (int j = 0; j < 8; ++j)
                for (int e = 0; e < 8; ++e) QCOMPARE(out[r * 64 + j * 8 + e], in[r * 8 + j]);
    }
    void brcbHonoursStrides() {
        NpuHarness h;
        float* in = h.gmRandom<float>(16, -5, 5, 6);
        float* out = h.gm<float>(256);
        for (int i = 0; i < 256; ++i) out[i] = -100.0f;
        ICPU_RUN_KF(regs::brcb_strided_kernel, 1, (GM_ADDR)in, (GM_ADDR)out);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (int r = 0; r < 2; ++r)
            for (int blk = 0; blk < 16; ++blk)
                for (int e = 0; e < 8; ++e) {
                    const float expect = blk % 2 == 0 ? in[r * 8 + blk / 2] : -100.0f;
                    QCOMPARE(out[r * 128 + blk * 8 + e], expect);
                }
    }
    void brcbRejectsInPlaceAndLongRepeats() {
        {
            NpuHarness h;
            float* in = h.gm<float>(64);
            float* out = h.gm<float>(64);
            ICPU_RUN_KF(regs::brcb_in_place_kernel, 1, (GM_ADDR)in, (GM_ADDR)out);
            QVERIFY2(h.find("address_overlap"), h.describe().c_str());
        }
        {
            NpuHarness h;
            float* in = h.gm<float>(64);
            float* out = h.gm<float>(64);
            ICPU_RUN_KF(regs::brcb_too_many_repeats_kernel, 1, (GM_ADDR)in, (GM_ADDR)out, 300);
            QVERIFY2(h.find("repeat_exceeds_255"), h.describe().c_str());
        }
    }
};

QTEST_MAIN(TestNpuApiRegs)
#include "test_npu_api_regs.moc"
