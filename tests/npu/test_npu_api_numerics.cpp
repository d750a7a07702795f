// API groups against plain C++: Cast under every RoundMode, half/bfloat16 numerics, reductions in the documented order, Compare/Select.
#include "NpuApiSupport.h"

class TestNpuApiNumerics : public QObject {
    Q_OBJECT
private slots:

    // ================================ Cast ======================================================

    void castFloatToHalfEveryRoundMode() {
        NpuHarness h;
        using RM = AscendC::RoundMode;
        const RM modes[] = {RM::CAST_NONE, RM::CAST_RINT, RM::CAST_FLOOR, RM::CAST_CEIL,
                            RM::CAST_ROUND, RM::CAST_TRUNC, RM::CAST_ODD};
        struct Row { float x; uint16_t e[7]; };  // NONE RINT FLOOR CEIL ROUND TRUNC ODD, by hand
        const float t11 = std::ldexp(1.0f, -11), t12 = std::ldexp(1.0f, -12);
        const Row rows[] = {
            {1 + t11, {0x3c00, 0x3c00, 0x3c00, 0x3c01, 0x3c01, 0x3c00, 0x3c01}},      // tie, even below
            {1 + 3 * t11, {0x3c02, 0x3c02, 0x3c01, 0x3c02, 0x3c02, 0x3c01, 0x3c01}},  // tie, even above
            {-(1 + t11), {0xbc00, 0xbc00, 0xbc01, 0xbc00, 0xbc01, 0xbc00, 0xbc01}},   // negative tie
            {1 + t12, {0x3c00, 0x3c00, 0x3c00, 0x3c01, 0x3c00, 0x3c00, 0x3c01}},      // quarter ulp
            {-(1 + 3 * t12), {0xbc01, 0xbc01, 0xbc01, 0xbc00, 0xbc01, 0xbc00, 0xbc01}},
            {-2.5f, {0xc100, 0xc100, 0xc100, 0xc100, 0xc100, 0xc100, 0xc100}},        // exact
            {0.1f, {0x2e66, 0x2e66, 0x2e66, 0x2e67, 0x2e66, 0x2e66, 0x2e67}},
            {70000.0f, {0x7c00, 0x7c00, 0x7bff, 0x7c00, 0x7c00, 0x7bff, 0x7bff}},     // overflow
            {-70000.0f, {0xfc00, 0xfc00, 0xfc00, 0xfbff, 0xfc00, 0xfbff, 0xfbff}},
            {65519.0f, {0x7bff, 0x7bff, 0x7bff, 0x7c00, 0x7bff, 0x7bff, 0x7bff}},
            {65520.0f, {0x7c00, 0x7c00, 0x7bff, 0x7c00, 0x7c00, 0x7bff, 0x7bff}},     // tie with "65536"
            {std::ldexp(1.0f, -25), {0x0000, 0x0000, 0x0000, 0x0001, 0x0001, 0x0000, 0x0001}},  // subnormal tie
            {3 * std::ldexp(1.0f, -26), {0x0001, 0x0001, 0x0000, 0x0001, 0x0001, 0x0000, 0x0001}},
            {-std::ldexp(1.0f, -25), {0x8000, 0x8000, 0x8001, 0x8000, 0x8001, 0x8000, 0x8001}},
            {3 * std::ldexp(1.0f, -25), {0x0002, 0x0002, 0x0001, 0x0002, 0x0002, 0x0001, 0x0001}},
            {1e-8f, {0x0000, 0x0000, 0x0000, 0x0001, 0x0000, 0x0000, 0x0001}},
        };
        std::vector<float> src(32, 0.0f);
        const size_t nRows = sizeof(rows) / sizeof(rows[0]);
        for (size_t i = 0; i < nRows; ++i) src[i] = rows[i].x;
        for (int m = 0; m < 7; ++m) {
            auto out = runCast<half>(h, src, modes[m]);
            EXPECT_CLEAN(h);
            for (size_t i = 0; i < nRows; ++i)
                EXPECT_HALF(out[i], rows[i].e[m], QString("mode %1 x=%2").arg(m).arg(double(rows[i].x), 0, 'g', 10));
        }
    }

    void castFloatToInt32AndFloat() {
        NpuHarness h;
        using RM = AscendC::RoundMode;
        const RM modes[] = {RM::CAST_RINT, RM::CAST_FLOOR, RM::CAST_CEIL, RM::CAST_ROUND, RM::CAST_TRUNC};
        struct Row { float x; int32_t e[5]; };  // RINT FLOOR CEIL ROUND TRUNC
        const Row rows[] = {
            {2.5f, {2, 2, 3, 3, 2}},     {-2.5f, {-2, -3, -2, -3, -2}}, {3.5f, {4, 3, 4, 4, 3}},
            {-0.5f, {0, -1, 0, -1, 0}},  {2.6f, {3, 2, 3, 3, 2}},       {-2.4f, {-2, -3, -2, -2, -2}},
            {0.49999997f, {0, 0, 1, 0, 0}}, {16777215.0f, {16777215, 16777215, 16777215, 16777215, 16777215}},
            // out of range saturates (the simulator's documented behaviour)
            {1e10f, {INT32_MAX, INT32_MAX, INT32_MAX, INT32_MAX, INT32_MAX}},
            {-1e10f, {INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN}},
        };
        const size_t nRows = sizeof(rows) / sizeof(rows[0]);
        std::vector<float> src(16, 0.0f);
        for (size_t i = 0; i < nRows; ++i) src[i] = rows[i].x;
        for (int m = 0; m < 5; ++m) {
            auto out = runCast<int32_t>(h, src, modes[m]);
            EXPECT_CLEAN(h);
            for (size_t i = 0; i < nRows; ++i) QCOMPARE(out[i], rows[i].e[m]);
            // float -> float under a rounding mode rounds to an integral value.
            auto outf = runCast<float>(h, src, modes[m]);
            EXPECT_CLEAN(h);
            for (size_t i = 0; i < nRows; ++i) {
                float expect = std::fabs(rows[i].x) < 1e9f ? float(rows[i].e[m]) : rows[i].x;
                if (rows[i].x == -0.5f && (m == 0 || m == 2 || m == 4)) expect = -0.0f;
                if (rows[i].x == 0.49999997f && m != 2) expect = 0.0f;
                QCOMPARE(std::bit_cast<uint32_t>(outf[i]), std::bit_cast<uint32_t>(expect));
            }
        }
    }

    void castHalfToFloatIsExact() {
        NpuHarness h;
        const uint16_t bits[] = {0x0001, 0x03ff, 0x0400, 0x3555, 0x3c00, 0x7bff, 0x7c00, 0x8000,
                                 0x8001, 0xbc01, 0xc49a, 0xfbff, 0xfc00, 0x1234, 0x2e66, 0x5640};
        std::vector<half> src(16);
        for (int i = 0; i < 16; ++i) src[size_t(i)] = half::fromBits(bits[i]);
        auto out = runCast<float>(h, src, AscendC::RoundMode::CAST_NONE);
        EXPECT_CLEAN(h);
        for (int i = 0; i < 16; ++i)
            QCOMPARE(std::bit_cast<uint32_t>(out[size_t(i)]), std::bit_cast<uint32_t>(refHalfValue(bits[i])));
        // and back: half -> float -> half is the identity
        auto back = runCast<half>(h, out, AscendC::RoundMode::CAST_RINT);
        EXPECT_CLEAN(h);
        for (int i = 0; i < 16; ++i) QCOMPARE(back[size_t(i)].bits, bits[i]);
    }

    void castBfloat16() {
        NpuHarness h;
        using RM = AscendC::RoundMode;
        const RM modes[] = {RM::CAST_RINT, RM::CAST_FLOOR, RM::CAST_CEIL, RM::CAST_ROUND, RM::CAST_TRUNC};
        struct Row { float x; uint16_t e[5]; };  // RINT FLOOR CEIL ROUND TRUNC, by hand
        const float t8 = std::ldexp(1.0f, -8);
        const Row rows[] = {
            {1 + t8, {0x3f80, 0x3f80, 0x3f81, 0x3f81, 0x3f80}},
            {1 + 3 * t8, {0x3f82, 0x3f81, 0x3f82, 0x3f82, 0x3f81}},
            {-(1 + t8), {0xbf80, 0xbf81, 0xbf80, 0xbf81, 0xbf80}},
            {1 + std::ldexp(1.0f, -9), {0x3f80, 0x3f80, 0x3f81, 0x3f80, 0x3f80}},
            {std::numeric_limits<float>::max(), {0x7f80, 0x7f7f, 0x7f80, 0x7f80, 0x7f7f}},
            {std::bit_cast<float>(0x00018000u), {0x0002, 0x0001, 0x0002, 0x0002, 0x0001}},  // subnormal tie
            {-3.0f, {0xc040, 0xc040, 0xc040, 0xc040, 0xc040}},
        };
        const size_t nRows = sizeof(rows) / sizeof(rows[0]);
        std::vector<float> src(16, 0.0f);
        for (size_t i = 0; i < nRows; ++i) src[i] = rows[i].x;
        for (int m = 0; m < 5; ++m) {
            auto out = runCast<bfloat16_t>(h, src, modes[m]);
            EXPECT_CLEAN(h);
            for (size_t i = 0; i < nRows; ++i)
                QVERIFY2(out[i].bits == rows[i].e[m],
                         qPrintable(QString("mode %1 row %2: got %3 expected %4").arg(m).arg(i)
                                        .arg(hex16(out[i].bits)).arg(hex16(rows[i].e[m]))));
        }
        std::vector<bfloat16_t> b(16);
        for (int i = 0; i < 16; ++i) b[size_t(i)] = bfloat16_t::fromBits(uint16_t(0x3f80 + 37 * i) ^ (i % 2 ? 0x8000 : 0));
        auto f = runCast<float>(h, b, RM::CAST_NONE);
        EXPECT_CLEAN(h);
        for (int i = 0; i < 16; ++i) QCOMPARE(std::bit_cast<uint32_t>(f[size_t(i)]), uint32_t(b[size_t(i)].bits) << 16);
    }

    // ================================ numerics =================================================

    void halfIsIeeeBinary16WithNearestEven() {
        NpuHarness h;  // the half -> float table lives in the runtime
        for (uint32_t b = 0; b < 0x10000; ++b) {
            float got = float(half::fromBits(uint16_t(b)));
            float want = refHalfValue(uint16_t(b));
            if (std::isnan(want)) {
                QVERIFY(std::isnan(got));
                continue;
            }
            QCOMPARE(std::bit_cast<uint32_t>(got), std::bit_cast<uint32_t>(want));
        }
        // Every midpoint between neighbouring finite halfs (ties -> even), and just off it.
        for (uint32_t b = 0; b < 0x7bff; ++b) {
            double lo = refHalfValue(uint16_t(b)), hi = refHalfValue(uint16_t(b + 1));
            float mid = float((lo + hi) / 2);  // exact in float
            QCOMPARE(half(mid).bits, uint16_t((b & 1) ? b + 1 : b));
            QCOMPARE(half(-mid).bits, uint16_t(((b & 1) ? b + 1 : b) | 0x8000));
            QCOMPARE(half(std::nextafter(mid, 0.0f)).bits, refHalfBits(std::nextafter(mid, 0.0f)));
            QCOMPARE(half(std::nextafter(mid, 1e9f)).bits, refHalfBits(std::nextafter(mid, 1e9f)));
        }
        QCOMPARE(half(65519.996f).bits, uint16_t(0x7bff));
        QCOMPARE(half(65520.0f).bits, uint16_t(0x7c00));  // overflow to inf
        QCOMPARE(half(-1e6f).bits, uint16_t(0xfc00));
        QCOMPARE(half(std::numeric_limits<float>::infinity()).bits, uint16_t(0x7c00));
        QVERIFY((half(std::numeric_limits<float>::quiet_NaN()).bits & 0x7fffu) > 0x7c00u);
        QCOMPARE(half(std::ldexp(1.0f, -24)).bits, uint16_t(0x0001));  // smallest subnormal
        QCOMPARE(half(std::ldexp(1.0f, -26)).bits, uint16_t(0x0000));  // underflow to zero
        QCOMPARE(half(-0.0f).bits, uint16_t(0x8000));
        // Random floats over the whole half range, subnormals included.
        std::mt19937 rng(52);
        std::uniform_int_distribution<uint32_t> bitsDist(0x30000000u, 0x47ffffffu);
        for (int i = 0; i < 200000; ++i) {
            float f = std::bit_cast<float>(bitsDist(rng) | (i % 2 ? 0x80000000u : 0u));
            QCOMPARE(half(f).bits, refHalfBits(f));
        }
    }

    void bfloat16IsNearestEven() {
        for (uint32_t b = 0; b < 0x7f80; ++b) {
            float mid = std::bit_cast<float>((b << 16) | 0x8000u);  // midpoint of b and b + 1
            QCOMPARE(bfloat16_t(mid).bits, uint16_t((b & 1) ? b + 1 : b));
            QCOMPARE(bfloat16_t(-mid).bits, uint16_t(((b & 1) ? b + 1 : b) | 0x8000));
        }
        std::mt19937 rng(53);
        std::uniform_int_distribution<uint32_t> bitsDist;
        for (int i = 0; i < 200000; ++i) {
            float f = std::bit_cast<float>(bitsDist(rng));
            if (std::isnan(f)) continue;
            QCOMPARE(bfloat16_t(f).bits, refBf16Bits(f));
        }
        QCOMPARE(bfloat16_t(std::numeric_limits<float>::max()).bits, uint16_t(0x7f80));  // rounds to inf
        QCOMPARE(float(bfloat16_t::fromBits(0x4049)), 3.140625f);
    }

    void halfArithmeticEdgeCasesOnDevice() {
        NpuHarness h;
        // pairs (a, b) for a + b: overflow, subnormal sums, ties at large magnitude
        const float s24 = std::ldexp(1.0f, -24);
        const std::pair<float, float> pairs[] = {
            {60000, 60000}, {-65504, -65504}, {s24, s24}, {std::ldexp(1.0f, -14), -s24},
            {2048, 1}, {2050, 1}, {1, std::ldexp(1.0f, -11)}, {1, 3 * std::ldexp(1.0f, -11)},
            {0.1f, 0.2f}, {-0.0f, 0.0f}, {65504, 16}, {65504, 15},
        };
        const size_t np = sizeof(pairs) / sizeof(pairs[0]);
        std::vector<half> a(16, H(0)), b(16, H(0));
        for (size_t i = 0; i < np; ++i) {
            a[i] = H(pairs[i].first);
            b[i] = H(pairs[i].second);
        }
        auto c = runCount(h, a, b, {apik::V_ADD, 16, 16, 0, 0});
        EXPECT_CLEAN(h);
        const uint16_t expect[] = {0x7c00, 0xfc00, 0x0002, 0x03ff, 0x6800, 0x6802, 0x3c00, 0x3c02,
                                   0x34cc, 0x0000, 0x7c00, 0x7bff};
        for (size_t i = 0; i < np; ++i) EXPECT_HALF(c[i], expect[i], QString("pair %1").arg(i));
        // 2^-14 * 0.5 becomes the subnormal 2^-15
        std::vector<half> m(16, H(std::ldexp(1.0, -14)));
        auto d = runCount(h, m, m, {apik::V_MULS, 16, 16, 0.5f, 0});
        EXPECT_CLEAN(h);
        for (int i = 0; i < 16; ++i) QCOMPARE(d[size_t(i)].bits, uint16_t(0x0200));
    }

    // ================================ reductions ===============================================

    void reduceSumHalfOrderOn910B() {
        // 910B, count form: a tree inside each 128-element repeat, repeat results added in order.
        NpuHarness h;
        const uint32_t n = 1008;  // 7 full repeats and a tail of 112
        auto x = randHalf(n, 0, 1, 55);  // this data tells the two orders apart
        half* gx = toGm(h, x);
        half* gy = h.gm<half>(16);
        ICPU_RUN_KF(apik::reduce_kernel<half>, 1, (GM_ADDR)gx, (GM_ADDR)gy, n, 0, false);
        EXPECT_CLEAN(h);
        std::vector<float> parts;
        for (uint32_t r = 0; r * 128 < n; ++r) parts.push_back(treeSumHalf(&x[r * 128], std::min(128u, n - r * 128)));
        float seq = parts[0];
        for (size_t i = 1; i < parts.size(); ++i) seq = roundHalf(double(seq) + parts[i]);
        std::vector<half> ph;
        for (float p : parts) ph.push_back(H(p));
        float tree = treeSumHalf(ph.data(), ph.size());
        QVERIFY2(seq != tree, "test data must tell the two orders apart");
        EXPECT_HALF(gy[0], refHalfBits(seq), QString("ReduceSum"));
        double exact = 0;  // and the fp16 result stays close to the exact sum
        for (auto v : x) exact += hv(v);
        QVERIFY(std::fabs(hv(gy[0]) - exact) < 0.02 * exact);
    }

    void reduceSumHalfOrderOn310P() {
        // 310P: the repeat results are summed by the same tree again.
        sage::npu::DeviceProfile p;
        p.id = "310p-like";
        p.npuArch = 2002;
        NpuHarness h(p);
        const uint32_t n = 1008;
        auto x = randHalf(n, 0, 1, 55);  // this data tells the two orders apart
        half* gx = toGm(h, x);
        half* gy = h.gm<half>(16);
        ICPU_RUN_KF(apik::reduce_kernel<half>, 1, (GM_ADDR)gx, (GM_ADDR)gy, n, 0, false);
        EXPECT_CLEAN(h);
        std::vector<half> ph;
        for (uint32_t r = 0; r * 128 < n; ++r) ph.push_back(H(treeSumHalf(&x[r * 128], std::min(128u, n - r * 128))));
        float seq = hv(ph[0]);
        for (size_t i = 1; i < ph.size(); ++i) seq = roundHalf(double(seq) + hv(ph[i]));
        const float tree = treeSumHalf(ph.data(), ph.size());
        QVERIFY2(seq != tree, "test data must tell the two orders apart");
        EXPECT_HALF(gy[0], refHalfBits(tree), QString("ReduceSum 310P"));
    }

    void reduceSumFloatAndMaxMinWithIndex() {
        NpuHarness h;
        const uint32_t n = 1000;  // 15 full repeats of 64 and a tail of 40
        auto x = randFloat(n, -3, 3, 55);
        float* gx = toGm(h, x);
        float* gy = h.gm<float>(8);
        ICPU_RUN_KF(apik::reduce_kernel<float>, 1, (GM_ADDR)gx, (GM_ADDR)gy, n, 0, false);
        EXPECT_CLEAN(h);
        float seq = 0;
        for (uint32_t r = 0; r * 64 < n; ++r) {
            float part = treeSumFloat(&x[r * 64], std::min(64u, n - r * 64));
            seq = r == 0 ? part : seq + part;
        }
        QCOMPARE(std::bit_cast<uint32_t>(gy[0]), std::bit_cast<uint32_t>(seq));

        // max / min with calIndex: dst[1] holds the index as integer bits
        x[777] = 9.5f;
        x[123] = -9.25f;
        float* gx2 = toGm(h, x);
        ICPU_RUN_KF(apik::reduce_kernel<float>, 1, (GM_ADDR)gx2, (GM_ADDR)gy, n, 1, true);
        EXPECT_CLEAN(h);
        QCOMPARE(gy[0], 9.5f);
        QCOMPARE(std::bit_cast<uint32_t>(gy[1]), 777u);
        ICPU_RUN_KF(apik::reduce_kernel<float>, 1, (GM_ADDR)gx2, (GM_ADDR)gy, n, 2, true);
        EXPECT_CLEAN(h);
        QCOMPARE(gy[0], -9.25f);
        QCOMPARE(std::bit_cast<uint32_t>(gy[1]), 123u);

        auto xh = randHalf(608, -100, 100, 56);
        xh[599] = H(500);
        half* ghx = toGm(h, xh);
        half* ghy = h.gm<half>(16);
        ICPU_RUN_KF(apik::reduce_kernel<half>, 1, (GM_ADDR)ghx, (GM_ADDR)ghy, 608u, 1, true);
        EXPECT_CLEAN(h);
        QCOMPARE(ghy[0].bits, H(500).bits);
        QCOMPARE(ghy[1].bits, uint16_t(599));
    }

    void wholeReduceOverRows() {
        NpuHarness h;
        // 8 rows of 128 halfs; the sum of the first 100 of each row.
        auto x = randHalf(8 * 128, -2, 2, 57);
        half* gx = toGm(h, x);
        half* gy = h.gm<half>(16);
        apik::WholeJob j{apik::WR_SUM, 100, 8, 1, 1, 8, AscendC::ORDER_VALUE_INDEX, 8 * 128, 16};
        ICPU_RUN_KF(apik::whole_reduce_kernel<half>, 1, (GM_ADDR)gx, (GM_ADDR)gy, j);
        EXPECT_CLEAN(h);
        for (uint32_t r = 0; r < 8; ++r) EXPECT_HALF(gy[r], refHalfBits(treeSumHalf(&x[r * 128], 100)), QString("row %1").arg(r));
        for (uint32_t r = 8; r < 16; ++r) QCOMPARE(gy[r].bits, uint16_t(0));  // untouched

        // WholeReduceMax on 4 rows of 64 floats: (value, index) pairs.
        auto xf = randFloat(4 * 64, -50, 50, 58);
        float* gxf = toGm(h, xf);
        float* gyf = h.gm<float>(8);
        apik::WholeJob m{apik::WR_MAX, 64, 4, 1, 1, 8, AscendC::ORDER_VALUE_INDEX, 4 * 64, 8};
        ICPU_RUN_KF(apik::whole_reduce_kernel<float>, 1, (GM_ADDR)gxf, (GM_ADDR)gyf, m);
        EXPECT_CLEAN(h);
        for (uint32_t r = 0; r < 4; ++r) {
            auto it = std::max_element(xf.begin() + r * 64, xf.begin() + (r + 1) * 64);
            QCOMPARE(gyf[2 * r], *it);
            QCOMPARE(std::bit_cast<uint32_t>(gyf[2 * r + 1]), uint32_t(it - (xf.begin() + r * 64)));
        }
    }

    void blockReduceSum() {
        NpuHarness h;
        // 2 repeats x 8 blocks of 16 halfs -> 16 block sums, written back to back (dstRepStride 1
        // = one repeat's 8 results).
        auto x = randHalf(256, -2, 2, 59);
        half* gx = toGm(h, x);
        half* gy = h.gm<half>(32);
        apik::WholeJob j{apik::BR_SUM, 128, 2, 1, 1, 8, AscendC::ORDER_VALUE_INDEX, 256, 32};
        ICPU_RUN_KF(apik::whole_reduce_kernel<half>, 1, (GM_ADDR)gx, (GM_ADDR)gy, j);
        EXPECT_CLEAN(h);
        for (uint32_t b = 0; b < 16; ++b) EXPECT_HALF(gy[b], refHalfBits(treeSumHalf(&x[b * 16], 16, 16)), QString("block %1").arg(b));
        for (uint32_t b = 16; b < 32; ++b) QCOMPARE(gy[b].bits, uint16_t(0));

        auto xf = randFloat(128, -2, 2, 60);
        float* gxf = toGm(h, xf);
        float* gyf = h.gm<float>(16);
        apik::WholeJob jf{apik::BR_MAX, 64, 2, 1, 1, 8, AscendC::ORDER_VALUE_INDEX, 128, 16};
        ICPU_RUN_KF(apik::whole_reduce_kernel<float>, 1, (GM_ADDR)gxf, (GM_ADDR)gyf, jf);
        EXPECT_CLEAN(h);
        for (uint32_t b = 0; b < 16; ++b) QCOMPARE(gyf[b], *std::max_element(xf.begin() + b * 8, xf.begin() + b * 8 + 8));
    }

    // ================================ Compare / Select =========================================

    void compareAndSelect() {
        NpuHarness h;
        const uint32_t n = 256;
        auto a = randHalf(n, -4, 4, 61), b = randHalf(n, -4, 4, 62);
        for (uint32_t i = 0; i < n; i += 7) b[i] = a[i];  // some equal pairs
        using CM = AscendC::CMPMODE;
        const CM modes[] = {CM::LT, CM::GT, CM::EQ, CM::LE, CM::GE, CM::NE};
        for (int m = 0; m < 6; ++m) {
            half* ga = toGm(h, a);
            half* gb = toGm(h, b);
            uint8_t* gm = h.gm<uint8_t>(n / 8);
            half* go = h.gm<half>(n);
            apik::CmpSelJob j{n, modes[m], false, 0, AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE};
            ICPU_RUN_KF(apik::cmpsel_kernel<half>, 1, (GM_ADDR)ga, (GM_ADDR)gb, (GM_ADDR)gm, (GM_ADDR)go, j);
            EXPECT_CLEAN(h);
            for (uint32_t i = 0; i < n; ++i) {
                float x = hv(a[i]), y = hv(b[i]);
                bool r = m == 0 ? x < y : m == 1 ? x > y : m == 2 ? x == y : m == 3 ? x <= y : m == 4 ? x >= y : x != y;
                QCOMPARE(bool((gm[i / 8] >> (i % 8)) & 1), r);
                QCOMPARE(go[i].bits, r ? a[i].bits : b[i].bits);
            }
        }
        // CompareScalar + Select with a scalar: clamp from below, y = x > 0.5 ? x : 0.5
        auto af = randFloat(n, -2, 2, 63);
        float* ga = toGm(h, af);
        float* gb = h.gm<float>(n);
        uint8_t* gm = h.gm<uint8_t>(n / 8);
        float* go = h.gm<float>(n);
        apik::CmpSelJob s{n, CM::GT, true, 0.5f, AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE};
        ICPU_RUN_KF(apik::cmpsel_kernel<float>, 1, (GM_ADDR)ga, (GM_ADDR)gb, (GM_ADDR)gm, (GM_ADDR)go, s);
        EXPECT_CLEAN(h);
        for (uint32_t i = 0; i < n; ++i) {
            QCOMPARE(bool((gm[i / 8] >> (i % 8)) & 1), af[i] > 0.5f);
            QCOMPARE(go[i], std::max(af[i], 0.5f));
        }
    }

    void selectModes() {
        NpuHarness h;
        const uint32_t n = 256;  // float: 4 repeats of 64
        auto a = randFloat(n, 0, 1, 64), b = randFloat(n, -1, 0, 65);
        std::vector<uint8_t> bits(n / 8);
        std::mt19937 rng(66);
        for (auto& v : bits) v = uint8_t(rng());
        auto run = [&](AscendC::SELMODE mode) {
            float* go = h.gm<float>(n);
            ICPU_RUN_KF(apik::select_kernel<float>, 1, (GM_ADDR)toGm(h, a), (GM_ADDR)toGm(h, b),
                        (GM_ADDR)toGm(h, bits), (GM_ADDR)go, n, mode);
            return std::vector<float>(go, go + n);
        };
        // Mode 2 consumes the mask continuously: bit i selects element i.
        auto t = run(AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE);
        EXPECT_CLEAN(h);
        for (uint32_t i = 0; i < n; ++i) QCOMPARE(t[i], (bits[i / 8] >> (i % 8)) & 1 ? a[i] : b[i]);
        // Mode 0 uses the same first 256/sizeof(T) bits for every repeat.
        auto z = run(AscendC::SELMODE::VSEL_CMPMASK_SPR);
        EXPECT_CLEAN(h);
        for (uint32_t i = 0; i < n; ++i) {
            uint32_t bit = i % 64;
            QCOMPARE(z[i], (bits[bit / 8] >> (bit % 8)) & 1 ? a[i] : b[i]);
        }
    }
};

QTEST_MAIN(TestNpuApiNumerics)
#include "test_npu_api_numerics.moc"
