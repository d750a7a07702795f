// Places where the simulator used to differ from the device (issue 13, part 4), each checked
// against the value or the diagnostic the device (or its documentation) gives.
#include "NpuHarness.h"

namespace fid {
#include "kernels/fidelity/fidelity_kernels.cpp"
}

class TestNpuFidelity : public QObject {
    Q_OBJECT

    // Runs mmad_bias_kernel with a = b = 1, bias = 0.5 and returns C.
    std::vector<float> mmadBias(NpuHarness& h, int mode) {
        half* a = h.gm<half>(16 * 32);
        half* b = h.gm<half>(32 * 16);
        for (int i = 0; i < 16 * 32; ++i) a[i] = b[i] = half(1.0f);
        float* bias = h.gm<float>(16);
        for (int i = 0; i < 16; ++i) bias[i] = 0.5f;
        float* c = h.gm<float>(16 * 16);
        ICPU_RUN_KF(fid::mmad_bias_kernel, 1, (GM_ADDR)a, (GM_ADDR)b, (GM_ADDR)bias, (GM_ADDR)c, mode);
        return std::vector<float>(c, c + 256);
    }

private slots:
    void mmadWithBiasAndNoZeroInitIsBiasPlusProduct() {
        NpuHarness h;
        auto c = mmadBias(h, 0);
        QVERIFY2(!h.last().aborted, h.describe().c_str());
        QVERIFY2(!h.find("mmad_bias_ignored"), h.describe().c_str());
        for (float v : c) QCOMPARE(v, 32.5f);
    }
    void mmadAccumulatesOntoTheBiasedResult() {
        NpuHarness h;
        auto c = mmadBias(h, 2);
        QVERIFY2(!h.last().aborted, h.describe().c_str());
        for (float v : c) QCOMPARE(v, 64.5f);
    }
    void mmadWithZeroInitIgnoresTheBiasAndWarns() {
        NpuHarness h;
        auto c = mmadBias(h, 1);
        for (float v : c) QCOMPARE(v, 32.0f);
        const auto* d = h.find("mmad_bias_ignored");
        QVERIFY2(d && d->severity == "warning", h.describe().c_str());
        QVERIFY(d->message.find("cmatrixInitVal = false") != std::string::npos);
    }

    // Changed for issue 25's evidence: the TPipe limit was the host value (196352); a real 910B ran
    // EvoKernel's ReluCustom, which allocates exactly 196608 B, so TPipe now gets the whole UB.
    void ubBudgetIsTheWholeUbWhileTheHostSeesLess() {
        sage::npu::DeviceProfile p;
        QCOMPARE(p.ubUsableBytes, 196352u);  // GetCoreMemSize(UB) on a real 910B
        QCOMPARE(p.ubBytes, 196608u);        // ub_size of the platform ini
        {
            NpuHarness h;
            ICPU_RUN_KF(fid::ub_budget_kernel, 1, (GM_ADDR) nullptr, 196608u);
            QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        }
        NpuHarness h;
        ICPU_RUN_KF(fid::ub_budget_kernel, 1, (GM_ADDR) nullptr, 196608u + 32u);
        QVERIFY2(h.find("capacity_exceeded"), h.describe().c_str());
        QVERIFY(h.last().aborted);
    }

    void tbufGetWithoutInitBufferIsAWarningUntilUsed() {
        NpuHarness h;
        float* x = h.gmRandom<float>(64, -3, 3, 5);
        float* y = h.gm<float>(64);
        ICPU_RUN_KF(fid::tbuf_unused_kernel, 1, (GM_ADDR)x, (GM_ADDR)y);
        QVERIFY2(!h.last().aborted, h.describe().c_str());
        const auto* d = h.find("tbuf_not_initialised");
        QVERIFY2(d && d->severity == "warning", h.describe().c_str());
        QCOMPARE(d->line, fid::g_getLine);
        for (int i = 0; i < 64; ++i) QCOMPARE(y[i], x[i] + 1.0f);
    }

    void int64CastsOn910B() {
        NpuHarness h;
        int64_t* x = h.gm<int64_t>(32);
        for (int i = 0; i < 32; ++i) x[i] = (int64_t(i) - 16) * 1000003;
        float* yf = h.gm<float>(32);
        int32_t* yi = h.gm<int32_t>(32);
        ICPU_RUN_KF(fid::cast_int64_kernel, 1, (GM_ADDR)x, (GM_ADDR)yf, (GM_ADDR)yi);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (int i = 0; i < 32; ++i) {
            QCOMPARE(yf[i], float(x[i]));
            QCOMPARE(yi[i], int32_t(x[i]));
        }
    }

    void gmOutOfBoundsSaysHowFarPastTheEnd() {
        NpuHarness h;
        half* x = h.gm<half>(256);
        ICPU_RUN_KF(fid::gm_past_end_kernel, 1, (GM_ADDR)x, 48u, 64u);  // 16 halfs = 32 bytes too many
        const auto* d = h.find("gm_out_of_bounds");
        QVERIFY2(d, h.describe().c_str());
        QVERIFY2(d->message.find("reaches 32 bytes past the end") != std::string::npos, d->message.c_str());
        QVERIFY2(d->message.find("accesses 128 bytes") != std::string::npos, d->message.c_str());
        QCOMPARE(d->line, fid::g_pastEndLine);
    }
    void gmPastTheAllocationSaysHowFar() {
        NpuHarness h;
        half* x = h.gm<half>(48);
        ICPU_RUN_KF(fid::gm_past_end_kernel, 1, (GM_ADDR)x, 64u, 64u);  // range larger than the allocation
        const auto* d = h.find("gm_out_of_bounds");
        QVERIFY2(d, h.describe().c_str());
        QVERIFY2(d->message.find("32 bytes past the end of its GM allocation") != std::string::npos,
                 d->message.c_str());
    }

    void readingUnwrittenUbIsAWarning() {
        NpuHarness h;
        float* y = h.gm<float>(64);
        ICPU_RUN_KF(fid::ub_uninit_kernel, 1, (GM_ADDR)y, false);
        const auto* d = h.find("ub_uninitialised_read");
        QVERIFY2(d && d->severity == "warning", h.describe().c_str());
        QCOMPARE(d->line, fid::g_readUbLine);
        QVERIFY(!h.last().aborted);

        NpuHarness filled;
        float* y2 = filled.gm<float>(64);
        ICPU_RUN_KF(fid::ub_uninit_kernel, 1, (GM_ADDR)y2, true);
        QVERIFY2(filled.last().diagnostics.empty(), filled.describe().c_str());
        for (int i = 0; i < 64; ++i) QCOMPARE(y2[i], 3.0f);
    }
};

QTEST_MAIN(TestNpuFidelity)
#include "test_npu_fidelity.moc"
