// API groups against plain C++: data copy and vector instructions (count, mask + repeat, counter mode, expressions, advanced).
#include "NpuApiSupport.h"

class TestNpuApiVector : public QObject {
    Q_OBJECT
private slots:
    // ================================ data copy ================================================

    void dataCopyCountFormAndUbToUb() {
        NpuHarness h;
        const uint32_t n = 256;
        auto x = randHalf(n, -100, 100, 11);
        half* gx = toGm(h, x);
        half* gy = h.gm<half>(n);
        ICPU_RUN_KF(apik::copy_count_kernel<half>, 1, (GM_ADDR)gx, (GM_ADDR)gy, n);
        EXPECT_CLEAN(h);
        for (uint32_t i = 0; i < n; ++i) QCOMPARE(gy[i].bits, x[i].bits);
        QCOMPARE(h.last().gmBytesRead, uint64_t(n * 2));
        QCOMPARE(h.last().gmBytesWritten, uint64_t(n * 2));
        bool ubToUbOnV = false;
        for (const auto& e : h.last().events)
            if (std::string(e.op) == "DataCopy UB->UB") ubToUbOnV = e.pipe == uint8_t(sage::npu::PipeId::V);
        QVERIFY2(ubToUbOnV, "the UB -> UB copy should be an instruction on PIPE_V");

        auto xi = randInt(64, -1000000, 1000000, 12);
        int32_t* gxi = toGm(h, xi);
        int32_t* gyi = h.gm<int32_t>(64);
        ICPU_RUN_KF(apik::copy_count_kernel<int32_t>, 1, (GM_ADDR)gxi, (GM_ADDR)gyi, 64u);
        EXPECT_CLEAN(h);
        for (int i = 0; i < 64; ++i) QCOMPARE(gyi[i], xi[size_t(i)]);
    }

    void dataCopyCountFormRoundsDownUnalignedLength() {
        NpuHarness h;
        const uint32_t n = 37;  // 74 bytes: the hardware moves 64 and drops the rest
        auto x = randHalf(n, 1, 2, 13);
        half* gx = toGm(h, x);
        half* gy = h.gm<half>(n);
        ICPU_RUN_KF(apik::copy_count_kernel<half>, 1, (GM_ADDR)gx, (GM_ADDR)gy, n);
        const auto* w = h.find("datacopy_not_32b_multiple");
        QVERIFY2(w, h.describe().c_str());
        QCOMPARE(w->severity, std::string("warning"));
        QVERIFY(!h.last().aborted);
        for (uint32_t i = 0; i < 32; ++i) QCOMPARE(gy[i].bits, x[i].bits);
        for (uint32_t i = 32; i < n; ++i) QCOMPARE(gy[i].bits, uint16_t(0));  // never written
    }

    void dataCopyParamsGapsGmToUb() {
        NpuHarness h;
        // 3 rows of 2 blocks (32 halfs); GM rows are 3 blocks apart, UB rows 4 blocks apart.
        apik::GapCopyArgs a{3, 2, 1, 2, 3 * 4 * 16, H(-7)};
        const uint32_t gmElems = (3 - 1) * 3 * 16 + 2 * 16;
        auto x = randHalf(gmElems, -5, 5, 14);
        half* gx = toGm(h, x);
        half* gy = h.gm<half>(a.ubElems);
        ICPU_RUN_KF(apik::copy_gap_kernel, 1, (GM_ADDR)gx, (GM_ADDR)gy, a);
        EXPECT_CLEAN(h);
        for (uint32_t r = 0; r < 3; ++r)
            for (uint32_t j = 0; j < 64; ++j) {
                uint16_t expect = j < 32 ? x[r * 48 + j].bits : H(-7).bits;
                QCOMPARE(gy[r * 64 + j].bits, expect);
            }
        QCOMPARE(h.last().gmBytesRead, uint64_t(3 * 64));
    }

    void dataCopyParamsGapsUbToGm() {
        NpuHarness h;
        // UB rows of 2 blocks, 1 block apart; GM rows 2 blocks apart.
        apik::GapCopyArgs a{3, 2, 1, 2, 3 * 3 * 16, H(0)};
        auto x = randHalf(a.ubElems, -5, 5, 15);
        half* gx = toGm(h, x);
        const uint32_t gmElems = (3 - 1) * 4 * 16 + 32 + 16;  // one spare block at the end
        half* gy = h.gm<half>(gmElems);
        for (uint32_t i = 0; i < gmElems; ++i) gy[i] = H(42);
        ICPU_RUN_KF(apik::copy_gap_out_kernel, 1, (GM_ADDR)gx, (GM_ADDR)gy, a);
        EXPECT_CLEAN(h);
        for (uint32_t i = 0; i < gmElems; ++i) {
            uint32_t r = i / 64, j = i % 64;
            uint16_t expect = (r < 3 && j < 32) ? x[r * 48 + j].bits : H(42).bits;
            QCOMPARE(gy[i].bits, expect);
        }
    }

    void dataCopyPadGmToUbWithPaddingValue() {
        NpuHarness h;
        // 3 rows of 20 halfs (40 B) 3 halfs apart in GM; 2 left + 10 right padding -> 64 B per
        // row in UB, rows 1 block apart (dstStride 1).
        apik::PadCopyArgs<half> a{3, 40, 6, 1, true, 2, 10, H(-7), 3 * 48, H(99)};
        const uint32_t gmElems = 2 * 23 + 20;  // exactly what the copy reads
        auto x = randHalf(gmElems, -5, 5, 16);
        half* gx = toGm(h, x);
        half* gy = h.gm<half>(a.ubElems);
        ICPU_RUN_KF(apik::copy_pad_in_kernel<half>, 1, (GM_ADDR)gx, (GM_ADDR)gy, a);
        EXPECT_CLEAN(h);
        for (uint32_t r = 0; r < 3; ++r)
            for (uint32_t j = 0; j < 48; ++j) {
                uint16_t expect = j < 2 ? H(-7).bits : j < 22 ? x[r * 23 + j - 2].bits : j < 32 ? H(-7).bits : H(99).bits;
                QCOMPARE(gy[r * 48 + j].bits, expect);
            }
        QCOMPARE(h.last().gmBytesRead, uint64_t(3 * 40));
    }

    void dataCopyPadGmToUbUnalignedDummy() {
        NpuHarness h;
        auto x = randFloat(10, -5, 5, 17);
        float* gx = toGm(h, x);
        // 2 rows of 5 floats (20 B) + 1 left padding = 24 B: the rest of the 32-byte block is
        // dummy data, which takes the padding value when isPad is set.
        apik::PadCopyArgs<float> a{2, 20, 0, 0, true, 1, 0, 3.5f, 16, -1.0f};
        float* gy = h.gm<float>(16);
        ICPU_RUN_KF(apik::copy_pad_in_kernel<float>, 1, (GM_ADDR)gx, (GM_ADDR)gy, a);
        EXPECT_CLEAN(h);
        for (uint32_t r = 0; r < 2; ++r)
            for (uint32_t j = 0; j < 8; ++j) QCOMPARE(gy[r * 8 + j], (j >= 1 && j <= 5) ? x[r * 5 + j - 1] : 3.5f);

        // No left/right padding: the documented dummy is the first element of each block.
        apik::PadCopyArgs<float> b{2, 20, 0, 0, true, 0, 0, 3.5f, 16, -1.0f};
        float* gz = h.gm<float>(16);
        ICPU_RUN_KF(apik::copy_pad_in_kernel<float>, 1, (GM_ADDR)gx, (GM_ADDR)gz, b);
        EXPECT_CLEAN(h);
        for (uint32_t r = 0; r < 2; ++r)
            for (uint32_t j = 0; j < 8; ++j) QCOMPARE(gz[r * 8 + j], j < 5 ? x[r * 5 + j] : x[r * 5]);
    }

    void dataCopyPadUbToGmUnalignedLength() {
        NpuHarness h;
        auto x = randHalf(32, -5, 5, 18);  // UB: 2 rows padded to 16 halfs
        half* gx = toGm(h, x);
        const uint32_t gmElems = 34;
        half* gy = h.gm<half>(gmElems);
        for (uint32_t i = 0; i < gmElems; ++i) gy[i] = H(42);
        // 2 rows of 13 halfs (26 B) written 4 bytes apart in GM.
        ICPU_RUN_KF(apik::copy_pad_out_kernel, 1, (GM_ADDR)gx, (GM_ADDR)gy, uint16_t(2), 26u, 32u, 4u);
        EXPECT_CLEAN(h);
        for (uint32_t i = 0; i < gmElems; ++i) {
            uint32_t r = i / 15, j = i % 15;
            uint16_t expect = (r < 2 && j < 13) ? x[r * 16 + j].bits : H(42).bits;
            QCOMPARE(gy[i].bits, expect);
        }
        QCOMPARE(h.last().gmBytesWritten, uint64_t(2 * 26));
    }

    void setAtomicAddAccumulatesAcrossBlocks() {
        NpuHarness h;
        const uint32_t n = 64;
        std::vector<float> x(n), base(n);
        for (uint32_t i = 0; i < n; ++i) {
            x[i] = float(int(i) - 20) * 0.25f;
            base[i] = float(i) * 0.5f;
        }
        float* gx = toGm(h, x);
        float* gy = toGm(h, base);
        ICPU_RUN_KF(apik::atomic_add_kernel, 4, (GM_ADDR)gx, (GM_ADDR)gy, n);
        EXPECT_CLEAN(h);
        for (uint32_t i = 0; i < n; ++i) QCOMPARE(gy[i], base[i] + 10.0f * x[i]);  // 1 + 2 + 3 + 4
    }

    // ================================ vector: count form =======================================

    void binaryOpsHalf() {
        NpuHarness h;
        const uint32_t n = 300, len = 320;
        auto a = randHalf(len, -8, 8, 21);
        auto b = randHalf(len, 0.5, 4, 22);
        for (uint32_t i = 0; i < len; i += 3) b[i] = H(-hv(b[i]));
        const int ops[] = {apik::V_ADD, apik::V_SUB, apik::V_MUL, apik::V_DIV, apik::V_MAX, apik::V_MIN};
        for (int op : ops) {
            auto c = runCount(h, a, b, {op, n, len, 0, 0});
            EXPECT_CLEAN(h);
            for (uint32_t i = 0; i < n; ++i) {
                double x = hv(a[i]), y = hv(b[i]);
                double r = op == apik::V_ADD ? x + y : op == apik::V_SUB ? x - y : op == apik::V_MUL ? x * y
                         : op == apik::V_DIV ? x / y : op == apik::V_MAX ? std::max(x, y) : std::min(x, y);
                EXPECT_HALF(c[i], refHalfBits(r), QString("op %1 element %2").arg(op).arg(i));
            }
        }
    }

    void binaryOpsFloat() {
        NpuHarness h;
        const uint32_t n = 300, len = 320;
        auto a = randFloat(len, -1000, 1000, 23);
        auto b = randFloat(len, 0.001, 50, 24);
        for (uint32_t i = 1; i < len; i += 3) b[i] = -b[i];
        const int ops[] = {apik::V_ADD, apik::V_SUB, apik::V_MUL, apik::V_DIV, apik::V_MAX, apik::V_MIN};
        for (int op : ops) {
            auto c = runCount(h, a, b, {op, n, len, 0, 0});
            EXPECT_CLEAN(h);
            for (uint32_t i = 0; i < n; ++i) {
                double x = a[i], y = b[i];
                double r = op == apik::V_ADD ? x + y : op == apik::V_SUB ? x - y : op == apik::V_MUL ? x * y
                         : op == apik::V_DIV ? x / y : op == apik::V_MAX ? std::max(x, y) : std::min(x, y);
                QCOMPARE(std::bit_cast<uint32_t>(c[i]), std::bit_cast<uint32_t>(float(r)));
            }
        }
    }

    void binaryOpsInt32() {
        NpuHarness h;
        const uint32_t n = 200, len = 208;
        auto a = randInt(len, -30000, 30000, 25);
        auto b = randInt(len, -30000, 30000, 26);
        const int ops[] = {apik::V_ADD, apik::V_SUB, apik::V_MUL, apik::V_MAX, apik::V_MIN};
        for (int op : ops) {
            auto c = runCount(h, a, b, {op, n, len, 0, 0});
            EXPECT_CLEAN(h);
            for (uint32_t i = 0; i < n; ++i) {
                int64_t x = a[i], y = b[i];
                int64_t r = op == apik::V_ADD ? x + y : op == apik::V_SUB ? x - y : op == apik::V_MUL ? x * y
                          : op == apik::V_MAX ? std::max(x, y) : std::min(x, y);
                QCOMPARE(c[i], int32_t(r));
            }
        }
    }

    void expressionForm() {
        NpuHarness h;
        const uint32_t n = 256;  // the expression form covers the whole destination tensor
        auto a = randHalf(n, -8, 8, 27);
        auto b = randHalf(n, 1, 3, 28);
        const int ops[] = {apik::V_EXPR_ADD, apik::V_EXPR_SUB, apik::V_EXPR_MUL, apik::V_EXPR_DIV};
        for (int op : ops) {
            auto c = runCount(h, a, b, {op, n, n, 0, 0});
            EXPECT_CLEAN(h);
            for (uint32_t i = 0; i < n; ++i) {
                double x = hv(a[i]), y = hv(b[i]);
                double r = op == apik::V_EXPR_ADD ? x + y : op == apik::V_EXPR_SUB ? x - y
                         : op == apik::V_EXPR_MUL ? x * y : x / y;
                EXPECT_HALF(c[i], refHalfBits(r), QString("expr op %1 element %2").arg(op).arg(i));
            }
        }
    }

    void tensorScalarOps() {
        NpuHarness h;
        const uint32_t n = 130, len = 144;
        // half: the scalar is a half too (0.3 rounds to 0x34cd before the operation).
        auto a = randHalf(len, -8, 8, 29);
        const double s = hv(H(double(0.3f)));
        const int ops[] = {apik::V_ADDS, apik::V_MULS, apik::V_MAXS, apik::V_MINS, apik::V_LEAKY};
        for (int op : ops) {
            auto c = runCount(h, a, a, {op, n, len, 0.3f, 0});
            EXPECT_CLEAN(h);
            for (uint32_t i = 0; i < n; ++i) {
                double x = hv(a[i]);
                double r = op == apik::V_ADDS ? x + s : op == apik::V_MULS ? x * s : op == apik::V_MAXS ? std::max(x, s)
                         : op == apik::V_MINS ? std::min(x, s) : (x >= 0 ? x : x * s);
                EXPECT_HALF(c[i], refHalfBits(r), QString("scalar op %1 element %2").arg(op).arg(i));
            }
        }
        auto af = randFloat(len, -100, 100, 30);
        for (int op : ops) {
            auto c = runCount(h, af, af, {op, n, len, -0.7f, 0});
            EXPECT_CLEAN(h);
            const double sf = -0.7f;
            for (uint32_t i = 0; i < n; ++i) {
                double x = af[i];
                double r = op == apik::V_ADDS ? x + sf : op == apik::V_MULS ? x * sf
                         : op == apik::V_MAXS ? std::max(x, sf) : op == apik::V_MINS ? std::min(x, sf)
                         : (x >= 0 ? x : x * sf);
                QCOMPARE(c[i], float(r));
            }
        }
        // int32 with a scalar that float cannot hold exactly (2^24 + 1).
        auto ai = randInt(len, -1000, 1000, 31);
        const int iops[] = {apik::V_ADDS, apik::V_MAXS, apik::V_MINS};
        for (int op : iops) {
            auto c = runCount(h, ai, ai, {op, n, len, 0, 16777217});
            EXPECT_CLEAN(h);
            for (uint32_t i = 0; i < n; ++i) {
                int64_t x = ai[i], si = 16777217;
                int64_t r = op == apik::V_ADDS ? x + si : op == apik::V_MAXS ? std::max(x, si) : std::min(x, si);
                QCOMPARE(c[i], int32_t(r));
            }
        }
        auto cm = runCount(h, ai, ai, {apik::V_MULS, n, len, 0, -3});
        EXPECT_CLEAN(h);
        for (uint32_t i = 0; i < n; ++i) QCOMPARE(cm[i], ai[i] * -3);
    }

    void unaryOpsHalf() {
        NpuHarness h;
        const uint32_t n = 256;
        auto anyv = randHalf(n, -4, 4, 32);
        auto pos = randHalf(n, 0.05, 8, 33);
        struct Case { int op; bool positive; double (*f)(double); int64_t ulps; };
        const Case cases[] = {
            {apik::V_EXP, false, [](double x) { return std::exp(x); }, 1},
            {apik::V_LN, true, [](double x) { return std::log(x); }, 1},
            {apik::V_ABS, false, [](double x) { return std::fabs(x); }, 0},
            {apik::V_RELU, false, [](double x) { return x < 0 ? 0.0 : x; }, 0},
            {apik::V_SQRT, true, [](double x) { return std::sqrt(x); }, 1},
            {apik::V_RSQRT, true, [](double x) { return 1.0 / std::sqrt(x); }, 1},
            {apik::V_RECIP, true, [](double x) { return 1.0 / x; }, 1},
            {apik::V_NEG, false, [](double x) { return -x; }, 0},
        };
        for (const auto& cs : cases) {
            const auto& a = cs.positive ? pos : anyv;
            auto c = runCount(h, a, a, {cs.op, n, n, 0, 0});
            EXPECT_CLEAN(h);
            for (uint32_t i = 0; i < n; ++i) {
                uint16_t expect = refHalfBits(cs.f(hv(a[i])));
                QVERIFY2(halfUlps(c[i].bits, expect) <= cs.ulps,
                         qPrintable(QString("op %1 x=%2: got %3 expected %4").arg(cs.op).arg(double(hv(a[i])))
                                        .arg(double(hv(c[i]))).arg(double(refHalfValue(expect)))));
            }
        }
    }

    void unaryOpsFloatAndInt32() {
        NpuHarness h;
        const uint32_t n = 128;
        auto anyv = randFloat(n, -20, 20, 34);
        auto pos = randFloat(n, 0.001, 1000, 35);
        struct Case { int op; bool positive; double (*f)(double); int64_t ulps; };
        const Case cases[] = {
            {apik::V_EXP, false, [](double x) { return std::exp(x); }, 2},
            {apik::V_LN, true, [](double x) { return std::log(x); }, 2},
            {apik::V_ABS, false, [](double x) { return std::fabs(x); }, 0},
            {apik::V_RELU, false, [](double x) { return x < 0 ? 0.0 : x; }, 0},
            {apik::V_SQRT, true, [](double x) { return std::sqrt(x); }, 0},
            {apik::V_RSQRT, true, [](double x) { return 1.0 / std::sqrt(x); }, 2},
            {apik::V_RECIP, true, [](double x) { return 1.0 / x; }, 0},
            {apik::V_NEG, false, [](double x) { return -x; }, 0},
        };
        for (const auto& cs : cases) {
            const auto& a = cs.positive ? pos : anyv;
            auto c = runCount(h, a, a, {cs.op, n, n, 0, 0});
            EXPECT_CLEAN(h);
            for (uint32_t i = 0; i < n; ++i)
                QVERIFY2(floatUlps(c[i], float(cs.f(a[i]))) <= cs.ulps,
                         qPrintable(QString("op %1 x=%2: got %3 expected %4").arg(cs.op).arg(a[i]).arg(c[i])
                                        .arg(cs.f(a[i]))));
        }
        auto ai = randInt(64, -5000, 5000, 36);
        auto relu = runCount(h, ai, ai, {apik::V_RELU, 64, 64, 0, 0});
        EXPECT_CLEAN(h);
        auto neg = runCount(h, ai, ai, {apik::V_NEG, 64, 64, 0, 0});
        EXPECT_CLEAN(h);
        for (int i = 0; i < 64; ++i) {
            QCOMPARE(relu[size_t(i)], std::max(ai[size_t(i)], 0));
            QCOMPARE(neg[size_t(i)], -ai[size_t(i)]);
        }
    }

    void duplicate() {
        NpuHarness h;
        auto zh = randHalf(160, 0, 1, 37);
        auto ch = runCount(h, zh, zh, {apik::V_DUP, 150, 160, -1.75f, 0});
        EXPECT_CLEAN(h);
        for (uint32_t i = 0; i < 150; ++i) QCOMPARE(ch[i].bits, H(-1.75).bits);
        auto zf = randFloat(72, 0, 1, 38);
        auto cf = runCount(h, zf, zf, {apik::V_DUP, 72, 72, 1e-3f, 0});
        EXPECT_CLEAN(h);
        for (uint32_t i = 0; i < 72; ++i) QCOMPARE(cf[i], 1e-3f);
        auto zi = randInt(72, 0, 1, 39);
        auto ci = runCount(h, zi, zi, {apik::V_DUP, 72, 72, 0, 123456789});
        EXPECT_CLEAN(h);
        for (uint32_t i = 0; i < 72; ++i) QCOMPARE(ci[i], 123456789);
    }

    void advancedActivations() {
        NpuHarness h;
        auto gelu = [](double x) { return 0.5 * x * (1 + std::tanh(0.7978845608028654 * (x + 0.044715 * x * x * x))); };
        auto sigm = [](double x) { return 1 / (1 + std::exp(-x)); };
        auto tanh = [](double x) { return std::tanh(x); };
        struct Case { int op; std::function<double(double)> f; };
        const Case cases[] = {{apik::V_SIGMOID, sigm}, {apik::V_TANH, tanh}, {apik::V_GELU, gelu}};
        auto af = randFloat(128, -6, 6, 40);
        auto ah = randHalf(128, -6, 6, 41);
        for (const auto& cs : cases) {
            auto cf = runCount(h, af, af, {cs.op, 128, 128, 0, 0});
            EXPECT_CLEAN(h);
            for (uint32_t i = 0; i < 128; ++i)
                QVERIFY2(std::fabs(cf[i] - cs.f(af[i])) <= 1e-6 + 1e-5 * std::fabs(cs.f(af[i])),
                         qPrintable(QString("op %1 x=%2 got %3 want %4").arg(cs.op).arg(af[i]).arg(cf[i]).arg(cs.f(af[i]))));
            auto ch = runCount(h, ah, ah, {cs.op, 128, 128, 0, 0});
            EXPECT_CLEAN(h);
            for (uint32_t i = 0; i < 128; ++i)
                QVERIFY2(halfUlps(ch[i].bits, refHalfBits(cs.f(hv(ah[i])))) <= 1,
                         qPrintable(QString("op %1 x=%2 got %3").arg(cs.op).arg(double(hv(ah[i]))).arg(double(hv(ch[i])))));
        }
    }

    // ================================ vector: mask + repeat, counter mode ======================

    void repeatFormBitMaskHalf() {
        NpuHarness h;
        const uint32_t len = 256;
        auto a = randHalf(len, -8, 8, 42), b = randHalf(len, -8, 8, 43);
        std::vector<half> c(len, H(-1));
        apik::RepJob j{apik::R_ADD_MASK_ARRAY, len, 0x00FF00FF00FF00FFull, 0xF0F0F0F0F0F0F0F0ull, 0, 2, 1, 1, 1, 8, 8, 8, 0};
        auto out = runRepeat(h, a, b, c, j);
        EXPECT_CLEAN(h);
        for (uint32_t i = 0; i < len; ++i) {
            uint32_t lane = i % 128;
            bool on = lane < 64 ? (j.mask0 >> lane) & 1 : (j.mask1 >> (lane - 64)) & 1;
            uint16_t expect = on ? refHalfBits(double(hv(a[i])) + hv(b[i])) : H(-1).bits;
            EXPECT_HALF(out[i], expect, QString("element %1").arg(i));
        }
        // Full mask, 4 repeats, {1,1,1,8,8,8}: the same as the count form over 512 elements.
        auto a2 = randHalf(512, -8, 8, 44), b2 = randHalf(512, -8, 8, 45);
        std::vector<half> c2(512, H(0));
        apik::RepJob full{apik::R_ADD_MASK_COUNT, 512, 0, 0, 128, 4, 1, 1, 1, 8, 8, 8, 0};
        auto out2 = runRepeat(h, a2, b2, c2, full);
        EXPECT_CLEAN(h);
        for (uint32_t i = 0; i < 512; ++i) EXPECT_HALF(out2[i], refHalfBits(double(hv(a2[i])) + hv(b2[i])), QString::number(i));
    }

    void repeatFormStridedFloat() {
        NpuHarness h;
        // src0 reads every other 32-byte block (blkStride 2) and jumps 16 blocks per repeat.
        const uint32_t len = 384;
        auto a = randFloat(len, -8, 8, 46), b = randFloat(len, -8, 8, 47);
        std::vector<float> c(len, -1.0f);
        apik::RepJob j{apik::R_ADD_MASK_COUNT, len, 0, 0, 64, 3, 1, 2, 1, 8, 16, 8, 0};
        auto out = runRepeat(h, a, b, c, j);
        EXPECT_CLEAN(h);
        std::vector<float> expect(c);
        for (uint32_t r = 0; r < 3; ++r)
            for (uint32_t k = 0; k < 64; ++k) {
                uint32_t d = r * 64 + k, s0 = r * 128 + (k / 8) * 16 + k % 8, s1 = r * 64 + k;
                expect[d] = a[s0] + b[s1];
            }
        for (uint32_t i = 0; i < len; ++i) QCOMPARE(out[i], expect[i]);

        // Strided destination: 32 lanes (4 blocks) per repeat written every other block.
        std::vector<float> c2(len, -1.0f);
        apik::RepJob k{apik::R_ADD_MASK_COUNT, len, 0, 0, 32, 2, 2, 1, 1, 16, 8, 8, 0};
        auto out2 = runRepeat(h, a, b, c2, k);
        EXPECT_CLEAN(h);
        std::vector<float> expect2(c2);
        for (uint32_t r = 0; r < 2; ++r)
            for (uint32_t q = 0; q < 32; ++q) {
                uint32_t d = r * 128 + (q / 8) * 16 + q % 8, s = r * 64 + q;
                expect2[d] = a[s] + b[s];
            }
        for (uint32_t i = 0; i < len; ++i) QCOMPARE(out2[i], expect2[i]);
    }

    void counterModeAndMaskRegister() {
        NpuHarness h;
        const uint32_t len = 384;
        auto a = randHalf(len, -8, 8, 48), b = randHalf(len, -8, 8, 49);
        std::vector<half> c(len, H(-1));
        // Counter mode: the mask register holds an element count (300: 2 full repeats + 44).
        apik::RepJob cnt{apik::R_ADD_COUNTER, len, 0, 0, 300, 1, 1, 1, 1, 8, 8, 8, 0};
        auto out = runRepeat(h, a, b, c, cnt);
        EXPECT_CLEAN(h);
        for (uint32_t i = 0; i < len; ++i)
            EXPECT_HALF(out[i], i < 300 ? refHalfBits(double(hv(a[i])) + hv(b[i])) : H(-1).bits, QString::number(i));
        // Normal mode with isSetMask = false: the mask comes from SetVectorMask (16 lanes).
        apik::RepJob reg{apik::R_ADD_NORM_REG, len, 0xFFFFull, 0, 0, 3, 1, 1, 1, 8, 8, 8, 0};
        auto out2 = runRepeat(h, a, b, c, reg);
        EXPECT_CLEAN(h);
        for (uint32_t i = 0; i < len; ++i)
            EXPECT_HALF(out2[i], i % 128 < 16 ? refHalfBits(double(hv(a[i])) + hv(b[i])) : H(-1).bits, QString::number(i));
    }

    void repeatFormUnaryScalarAndDuplicate() {
        NpuHarness h;
        const uint32_t len = 128;
        auto a = randFloat(len, -8, 8, 50);
        std::vector<float> c(len, -1.0f);
        apik::RepJob muls{apik::R_MULS_MASK_COUNT, len, 0, 0, 20, 2, 1, 1, 1, 8, 8, 8, 2.5f};
        auto out = runRepeat(h, a, a, c, muls);
        EXPECT_CLEAN(h);
        for (uint32_t i = 0; i < len; ++i) QCOMPARE(out[i], i % 64 < 20 ? a[i] * 2.5f : -1.0f);

        apik::RepJob dup{apik::R_DUP_MASK_COUNT, len, 0, 0, 8, 4, 1, 1, 1, 2, 2, 2, 7.0f};
        auto out2 = runRepeat(h, a, a, c, dup);
        EXPECT_CLEAN(h);
        for (uint32_t i = 0; i < len; ++i) QCOMPARE(out2[i], (i < 64 && i % 16 < 8) ? 7.0f : -1.0f);

        auto ah = randHalf(256, -3, 3, 51);
        std::vector<half> ch(256, H(-1));
        apik::RepJob ex{apik::R_EXP_MASK_ARRAY, 256, ~0ull, 0, 0, 2, 1, 1, 1, 8, 8, 8, 0};
        auto out3 = runRepeat(h, ah, ah, ch, ex);
        EXPECT_CLEAN(h);
        for (uint32_t i = 0; i < 256; ++i) {
            if (i % 128 < 64)
                QVERIFY2(halfUlps(out3[i].bits, refHalfBits(std::exp(double(hv(ah[i]))))) <= 1, qPrintable(QString::number(i)));
            else
                QCOMPARE(out3[i].bits, H(-1).bits);
        }
    }
};

QTEST_MAIN(TestNpuApiVector)
#include "test_npu_api_vector.moc"
