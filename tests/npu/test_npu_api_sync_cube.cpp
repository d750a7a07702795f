// API groups against plain C++: synchronisation, scalar access, tiling macros, the documented examples and the cube path.
#include "NpuApiSupport.h"

class TestNpuApiSyncCube : public QObject {
    Q_OBJECT
private slots:

    // ================================ synchronisation ==========================================

    void setFlagWaitFlagMakesTBufKernelRaceFree() {
        NpuHarness h;
        const uint32_t tile = 1024, tiles = 4;
        auto x = randFloat(tile * tiles, -10, 10, 67);
        float* gx = toGm(h, x);
        float* gy = h.gm<float>(tile * tiles);
        ICPU_RUN_KF(apik::tbuf_sync_kernel, 1, (GM_ADDR)gx, (GM_ADDR)gy, tile, tiles, 0);
        EXPECT_CLEAN(h);
        for (uint32_t i = 0; i < tile * tiles; ++i) QCOMPARE(gy[i], x[i] + 1.0f);
        // The vector add of a tile starts only after its copy-in finished.
        std::vector<const sage::npu::TimelineEvent*> in, add;
        for (const auto& e : h.last().events) {
            if (std::string(e.op) == "DataCopy GM->UB") in.push_back(&e);
            if (std::string(e.op) == "Adds") add.push_back(&e);
        }
        QCOMPARE(in.size(), size_t(tiles));
        QCOMPARE(add.size(), size_t(tiles));
        for (uint32_t t = 0; t < tiles; ++t) QVERIFY(add[t]->start >= in[t]->end);
        for (uint32_t t = 1; t < tiles; ++t) QVERIFY(in[t]->start >= add[t - 1]->end);  // WAR edge V -> MTE2
    }

    void missingFlagIsReportedAsRace() {
        NpuHarness h;
        float* gx = h.gm<float>(2048);
        float* gy = h.gm<float>(2048);
        ICPU_RUN_KF(apik::tbuf_sync_kernel, 1, (GM_ADDR)gx, (GM_ADDR)gy, 1024u, 2u, 2);
        const auto* d = h.find("race_raw");
        QVERIFY2(d, h.describe().c_str());
        QCOMPARE(d->line, lineOf(d->file.c_str(), "Adds(out, in, 1.0f"));
        QCOMPARE(d->otherLine, lineOf(d->file.c_str(), "DataCopy(in, xGm[t * tile], tile)"));
        QCOMPARE(d->pipe, std::string("V"));
        QCOMPARE(d->otherPipe, std::string("MTE2"));
    }

    void pipeBarrierAllIsRaceFree() {
        NpuHarness h;
        auto x = randFloat(2048, -10, 10, 68);
        float* gx = toGm(h, x);
        float* gy = h.gm<float>(2048);
        ICPU_RUN_KF(apik::tbuf_sync_kernel, 1, (GM_ADDR)gx, (GM_ADDR)gy, 512u, 4u, 1);
        EXPECT_CLEAN(h);
        for (uint32_t i = 0; i < 2048; ++i) QCOMPARE(gy[i], x[i] + 1.0f);
    }

    // ================================ scalar access, tiling ====================================

    void getValueSetValue() {
        NpuHarness h;
        const uint32_t n = 64;
        auto x = randFloat(n, -10, 10, 69);
        float* gx = toGm(h, x);
        float* gy = h.gm<float>(n);
        float* gz = h.gm<float>(n);
        ICPU_RUN_KF(apik::scalar_access_kernel, 1, (GM_ADDR)gx, (GM_ADDR)gy, (GM_ADDR)gz, n, 24u);
        EXPECT_CLEAN(h);
        for (uint32_t i = 0; i < n; ++i) {
            QCOMPARE(gy[i], i < 24 ? 2.0f * x[i] + 1.0f : -1.0f);
            QCOMPARE(gz[i], x[i] - 1.0f);
        }
    }

    // The scalar data cache indexes lines by address. Host addresses change with ASLR and with
    // whatever the host allocated before, so the model uses device addresses handed out in
    // allocation order; the same kernel then takes the same cycles wherever the host put its
    // buffers (a cross_entropy draft varied by up to 1 200 cycles from run to run before).
    void scalarGmTimingIgnoresHostAddresses() {
        const uint32_t n = 4096;
        auto x = randFloat(n, -10, 10, 71);
        uint64_t cycles[2] = {0, 0};
        uint64_t zDevice[2] = {0, 0};
        for (int layout = 0; layout < 2; ++layout) {
            NpuHarness h;
            float* gx = toGm(h, x);
            // A different host layout in the second harness: host memory between the buffers.
            std::vector<char> hostPadding(layout ? 3u * 1024 * 1024 + 4160 : 0);
            float* gy = h.gm<float>(n);
            std::vector<char> morePadding(layout ? 12352 : 0);
            float* gz = h.gm<float>(n);
            QCOMPARE(h.sim.gmDeviceAddress(gx) % 512, uint64_t(0));
            QCOMPARE(h.sim.gmDeviceAddress(gz + 5) - h.sim.gmDeviceAddress(gz), uint64_t(5 * sizeof(float)));
            QVERIFY(h.sim.gmDeviceAddress(gy) >= h.sim.gmDeviceAddress(gx) + n * sizeof(float));
            ICPU_RUN_KF(apik::scalar_access_kernel, 1, (GM_ADDR)gx, (GM_ADDR)gy, (GM_ADDR)gz, n, 24u);
            EXPECT_CLEAN(h);
            cycles[layout] = h.last().totalCycles;
            zDevice[layout] = h.sim.gmDeviceAddress(gz);
        }
        QCOMPARE(zDevice[1], zDevice[0]);
        QCOMPARE(cycles[1], cycles[0]);
    }

    void tilingDataAndTilingKey() {
        NpuHarness h;
        const uint32_t blocks = 4, blockLen = 256;
        auto x = randFloat(blocks * blockLen, -10, 10, 70);
        float* gx = toGm(h, x);
        auto* td = reinterpret_cast<apik::TilingData*>(AscendC::GmAlloc(sizeof(apik::TilingData)));
        *td = {blocks * blockLen, blockLen, 3.0f};
        uint8_t* ws = AscendC::GmAlloc(64);
        for (uint64_t key : {1ull, 2ull, 7ull}) {
            h.sim.setTilingKey(key);
            float* gy = h.gm<float>(blocks * blockLen);
            ICPU_RUN_KF(apik::tiling_kernel, blocks, (GM_ADDR)gx, (GM_ADDR)gy, ws, (GM_ADDR)td);
            EXPECT_CLEAN(h);
            QCOMPARE(h.last().coresUsed, blocks);
            for (uint32_t i = 0; i < blocks * blockLen; ++i)
                QCOMPARE(gy[i], key == 1 ? x[i] * 3.0f : key == 2 ? x[i] + 3.0f : x[i]);
        }
        // A wrong tiling makes the kernel's ASSERT fire at its line.
        td->totalLength = 5;
        ICPU_RUN_KF(apik::tiling_kernel, blocks, (GM_ADDR)gx, (GM_ADDR)h.gm<float>(1024), ws, (GM_ADDR)td);
        QVERIFY(h.find("assert_failed"));
        QVERIFY(h.last().aborted);
    }

    void tik2AliasAndTilingStruct() {
        NpuHarness h;
        auto x = randInt(64, -100000, 100000, 71);
        int32_t* gx = toGm(h, x);
        int32_t* gy = h.gm<int32_t>(64);
        auto* td = reinterpret_cast<apik::ShiftTiling*>(AscendC::GmAlloc(sizeof(apik::ShiftTiling)));
        *td = {64, -77};
        ICPU_RUN_KF(apik::tik2_tiling_kernel, 1, (GM_ADDR)gx, (GM_ADDR)gy, (GM_ADDR)td);
        EXPECT_CLEAN(h);
        for (int i = 0; i < 64; ++i) QCOMPARE(gy[i], x[size_t(i)] - 77);
    }

    // ================================ cube ======================================================

    // ================================ the documented examples ==================================

    void docExampleAxpy() {
        for (uint32_t n : {40u, 8192u * 3, 300007u}) {
            NpuHarness h;
            auto x = randHalf(n, -4, 4, 80), y = randHalf(n, -4, 4, 81);
            half* z = h.gm<half>(n);
            TestHostContext ctx(h);
            ctx.tensor("x", toGm(h, x), {int64_t(n)});
            ctx.tensor("y", toGm(h, y), {int64_t(n)});
            ctx.tensor("z", z, {int64_t(n)});
            ctx.setAttr("alpha", 0.37);
            example_axpy::host_launch(ctx);
            EXPECT_CLEAN(h);
            const double alpha = hv(H(double(0.37f)));
            for (uint32_t i = 0; i < n; ++i)
                EXPECT_HALF(z[i], refHalfBits(double(roundHalf(alpha * hv(x[i]))) + hv(y[i])),
                            QString("n %1 element %2").arg(n).arg(i));
            QCOMPARE(h.last().gmBytesRead, uint64_t(4) * n);
            QCOMPARE(h.last().gmBytesWritten, uint64_t(2) * n);
        }
    }

    void docExampleRowSum() {
        const std::pair<uint32_t, uint32_t> shapes[] = {{37, 5}, {100, 64}, {300, 200}, {7, 1000}, {5, 2040}, {1, 3}};
        for (auto [rows, cols] : shapes) {
            NpuHarness h;
            auto x = randFloat(size_t(rows) * cols, -1, 1, 82);
            float* y = h.gm<float>(rows);
            TestHostContext ctx(h);
            ctx.tensor("x", toGm(h, x), {int64_t(rows), int64_t(cols)});
            ctx.tensor("y", y, {int64_t(rows)});
            example_row_sum::host_launch(ctx);
            EXPECT_CLEAN(h);
            const uint32_t lanes = std::min(cols, 64u);
            for (uint32_t r = 0; r < rows; ++r) {
                const float* row = &x[size_t(r) * cols];
                std::vector<float> acc(row, row + lanes);  // columns 64.. folded onto the first 64
                for (uint32_t c = 64; c < cols; c += 64)
                    for (uint32_t j = 0; j < std::min(64u, cols - c); ++j) acc[j] = acc[j] + row[c + j];
                const float expect = treeSumFloat(acc.data(), lanes);
                QVERIFY2(std::bit_cast<uint32_t>(y[r]) == std::bit_cast<uint32_t>(expect),
                         qPrintable(QString("%1 x %2, row %3: got %4 expected %5").arg(rows).arg(cols).arg(r)
                                        .arg(y[r]).arg(expect)));
            }
        }
    }

    void gemmFp16() {
        struct Case { uint16_t M, K, N, split; bool integers; bool halfOut; };
        const Case cases[] = {
            {32, 64, 48, 1, true, false},   // exact: small integers, fp32 accumulation is exact
            {32, 64, 48, 1, false, false},  // random reals
            {20, 40, 40, 1, true, false},   // no dimension a multiple of 16
            {20, 40, 40, 1, false, false},
            {32, 64, 48, 2, false, false},  // accumulate two K halves in CO1 (cmatrixInitVal=false)
            {48, 32, 16, 1, true, true},    // Fixpipe F322F16 into a half C
        };
        for (const auto& cs : cases) {
            NpuHarness h;
            auto a = cs.integers ? std::vector<half>() : randHalf(size_t(cs.M) * cs.K, -1, 1, 72);
            auto b = cs.integers ? std::vector<half>() : randHalf(size_t(cs.K) * cs.N, -1, 1, 73);
            if (cs.integers) {
                auto ai = randInt(size_t(cs.M) * cs.K, -4, 4, 74), bi = randInt(size_t(cs.K) * cs.N, -4, 4, 75);
                for (int v : ai) a.push_back(H(v));
                for (int v : bi) b.push_back(H(v));
            }
            half* ga = toGm(h, a);
            half* gb = toGm(h, b);
            const size_t mn = size_t(cs.M) * cs.N;
            float* gcf = cs.halfOut ? nullptr : h.gm<float>(mn);
            half* gch = cs.halfOut ? h.gm<half>(mn) : nullptr;
            apik::GemmShape s{cs.M, cs.K, cs.N, cs.split, cs.halfOut};
            GM_ADDR gc = cs.halfOut ? (GM_ADDR)gch : (GM_ADDR)gcf;
            ICPU_RUN_KF(apik::gemm_kernel, 1, (GM_ADDR)ga, (GM_ADDR)gb, gc, s);
            EXPECT_CLEAN(h);
            QVERIFY(h.last().cubeKernel);
            const uint64_t mb = (cs.M + 15) / 16, kb = (cs.K + 15) / 16, nb = (cs.N + 15) / 16;
            QCOMPARE(h.last().cubeFractals, mb * kb * nb);
            for (uint32_t m = 0; m < cs.M; ++m)
                for (uint32_t n = 0; n < cs.N; ++n) {
                    float acc = 0;
                    double mag = 0;
                    for (uint32_t k = 0; k < cs.K; ++k) {
                        float p = hv(a[m * cs.K + k]) * hv(b[k * cs.N + n]);  // exact in float
                        acc += p;
                        mag += std::fabs(p);
                    }
                    const QString where = QString("M%1 K%2 N%3 split %4 at (%5, %6)").arg(cs.M).arg(cs.K).arg(cs.N)
                                              .arg(cs.split).arg(m).arg(n);
                    if (cs.halfOut) {
                        EXPECT_HALF(gch[m * cs.N + n], refHalfBits(acc), where);
                    } else if (cs.integers) {
                        QVERIFY2(gcf[m * cs.N + n] == acc, qPrintable(where));
                    } else {
                        QVERIFY2(std::fabs(gcf[m * cs.N + n] - acc) <= 1e-5 * mag + 1e-6,
                                 qPrintable(where + QString(": got %1 want %2").arg(gcf[m * cs.N + n]).arg(acc)));
                    }
                }
        }
    }
};

QTEST_MAIN(TestNpuApiSyncCube)
#include "test_npu_api_sync_cube.moc"
