// Timing properties of the cost model that users rely on when they optimise.
#include "NpuHarness.h"

#include <cmath>

using namespace AscendC;

namespace {

struct AddTiling {
    uint32_t total;     // elements
    uint32_t tile;      // elements per tile
    uint32_t buffers;   // 1 = single, 2 = double buffering
    uint32_t extraExp;  // extra vector work per tile, to make the kernel compute-bound
};

class AddKernel {
public:
    __aicore__ void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const AddTiling& t) {
        t_ = t;
        blockLen_ = t.total / GetBlockNum();
        uint64_t off = uint64_t(blockLen_) * GetBlockIdx();
        xGm.SetGlobalBuffer((__gm__ float*)x + off, blockLen_);
        yGm.SetGlobalBuffer((__gm__ float*)y + off, blockLen_);
        zGm.SetGlobalBuffer((__gm__ float*)z + off, blockLen_);
        pipe.InitBuffer(inX, t.buffers, t.tile * sizeof(float));
        pipe.InitBuffer(inY, t.buffers, t.tile * sizeof(float));
        pipe.InitBuffer(outZ, t.buffers, t.tile * sizeof(float));
    }
    __aicore__ void Process() {
        for (uint32_t i = 0; i < blockLen_ / t_.tile; ++i) {
            LocalTensor<float> x = inX.AllocTensor<float>(), y = inY.AllocTensor<float>();
            DataCopy(x, xGm[i * t_.tile], t_.tile);
            DataCopy(y, yGm[i * t_.tile], t_.tile);
            inX.EnQue(x);
            inY.EnQue(y);
            x = inX.DeQue<float>();
            y = inY.DeQue<float>();
            LocalTensor<float> z = outZ.AllocTensor<float>();
            Add(z, x, y, t_.tile);
            for (uint32_t k = 0; k < t_.extraExp; ++k) Exp(z, z, t_.tile);
            outZ.EnQue(z);
            inX.FreeTensor(x);
            inY.FreeTensor(y);
            z = outZ.DeQue<float>();
            DataCopy(zGm[i * t_.tile], z, t_.tile);
            outZ.FreeTensor(z);
        }
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, 2> inX, inY;
    TQue<TPosition::VECOUT, 2> outZ;
    GlobalTensor<float> xGm, yGm, zGm;
    AddTiling t_{};
    uint32_t blockLen_ = 0;
};

extern "C" __global__ __aicore__ void timed_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, AddTiling t) {
    AddKernel k;
    k.Init(x, y, z, t);
    k.Process();
}

uint64_t cyclesOf(const AddTiling& t, uint32_t blockDim, sage::npu::DeviceProfile prof = {}) {
    NpuHarness h(std::move(prof));
    float* x = h.gm<float>(t.total);
    float* y = h.gm<float>(t.total);
    float* z = h.gm<float>(t.total);
    ICPU_RUN_KF(timed_add, blockDim, (GM_ADDR)x, (GM_ADDR)y, (GM_ADDR)z, t);
    if (!h.last().diagnostics.empty()) qWarning("%s", h.describe().c_str());
    return h.last().totalCycles - h.last().launchOverheadCycles;
}

// Two copies on MTE2 back to back, no sync between them (a pipe is in order by itself).
extern "C" __global__ __aicore__ void two_copies(GM_ADDR x, uint32_t n) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> a, b;
    pipe.InitBuffer(a, n * sizeof(float));
    pipe.InitBuffer(b, n * sizeof(float));
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 2 * n);
    LocalTensor<float> la = a.Get<float>(), lb = b.Get<float>();
    DataCopy(la, xGm, n);
    DataCopy(lb, xGm[n], n);
}

// A scalar walk over GM with a stride of one cache line: every read misses the data cache.
extern "C" __global__ __aicore__ void strided_scalar_sum(GM_ADDR x, GM_ADDR y, uint32_t n) {
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, n * 16);
    yGm.SetGlobalBuffer((__gm__ float*)y, 8);
    float sum = 0;
    for (uint32_t i = 0; i < n; ++i) sum += xGm.GetValue(i * 16);
    yGm.SetValue(0, sum);
}

sage::npu::DeviceProfile withFullL2() {
    sage::npu::DeviceProfile p;
    p.l2Bytes = 64ull << 20;
    p.l2BytesPerCycle = 4 * p.chipGmBytesPerCycle;
    p.l2ReadLatencyCycles = 50;
    p.l2WriteLatencyCycles = 50;
    return p;
}

} // namespace

class TestNpuTiming : public QObject {
    Q_OBJECT
private slots:
    void doubleBufferingSpeedsUpAnMte2BoundKernel() {
        AddTiling t{1 << 20, 4096, 1, 0};
        uint64_t single = cyclesOf(t, 1);
        t.buffers = 2;
        uint64_t dbl = cyclesOf(t, 1);
        double ratio = double(single) / double(dbl);
        qInfo("MTE2-bound add: single %llu, double %llu cycles, ratio %.2f", (unsigned long long)single,
              (unsigned long long)dbl, ratio);
        QVERIFY2(ratio >= 1.3 && ratio <= 2.0, qPrintable(QString::number(ratio)));
    }
    void doubleBufferingGainsLittleWhenComputeBound() {
        AddTiling t{1 << 18, 4096, 1, 64};
        uint64_t single = cyclesOf(t, 1);
        t.buffers = 2;
        uint64_t dbl = cyclesOf(t, 1);
        double ratio = double(single) / double(dbl);
        qInfo("compute-bound: single %llu, double %llu cycles, ratio %.2f", (unsigned long long)single,
              (unsigned long long)dbl, ratio);
        QVERIFY2(ratio >= 1.0 && ratio < 1.15, qPrintable(QString::number(ratio)));
        AddTiling m{1 << 18, 4096, 1, 0};
        uint64_t memSingle = cyclesOf(m, 1);
        m.buffers = 2;
        double memRatio = double(memSingle) / double(cyclesOf(m, 1));
        QVERIFY2(ratio < memRatio - 0.25, "the gain must shrink as compute dominates");
    }
    void moreBlocksHalveCyclesUntilTheChipBandwidthCaps() {
        AddTiling t{1 << 22, 4096, 2, 0};
        uint64_t prev = cyclesOf(t, 1);
        for (uint32_t blocks : {2u, 4u, 8u}) {
            uint64_t c = cyclesOf(t, blocks);
            double ratio = double(c) / double(prev);
            qInfo("blockDim %u: %llu cycles (x%.2f of half the blocks)", blocks, (unsigned long long)c, ratio);
            QVERIFY2(ratio > 0.45 && ratio < 0.6, qPrintable(QString::number(ratio)));
            prev = c;
        }
        uint64_t c16 = cyclesOf(t, 16), c32 = cyclesOf(t, 32);
        qInfo("blockDim 16: %llu, 32: %llu cycles", (unsigned long long)c16, (unsigned long long)c32);
        QVERIFY2(double(c32) / double(c16) > 0.85, "beyond the chip bandwidth more blocks must not keep halving");
    }
    void blocksBeyondTheCoreCountRunInWaves() {
        AddTiling t{48 * 2 * 4096, 4096, 2, 0};
        NpuHarness h;
        float* x = h.gm<float>(t.total);
        float* y = h.gm<float>(t.total);
        float* z = h.gm<float>(t.total);
        ICPU_RUN_KF(timed_add, 96, (GM_ADDR)x, (GM_ADDR)y, (GM_ADDR)z, t);
        const auto& r = h.last();
        QCOMPARE(r.coresUsed, 48u);
        for (const auto& c : r.cores) QCOMPARE(c.blocks, 2u);
    }
    void timelineEventsCarrySourceLinesAndPipes() {
        NpuHarness h;
        AddTiling t{8192, 4096, 2, 0};
        float* x = h.gm<float>(t.total);
        float* y = h.gm<float>(t.total);
        float* z = h.gm<float>(t.total);
        ICPU_RUN_KF(timed_add, 1, (GM_ADDR)x, (GM_ADDR)y, (GM_ADDR)z, t);
        const auto& r = h.last();
        uint32_t addLine = lineOf(__FILE__, "Add(z, x, y, t_.tile)");
        bool sawAdd = false, sawMte2 = false, sawMte3 = false;
        for (const auto& e : r.events) {
            QVERIFY(e.end >= e.start);
            if (std::string(e.op) == "Add") {
                sawAdd = true;
                QCOMPARE(e.line, addLine);
                QCOMPARE(int(e.pipe), int(sage::npu::PipeId::V));
            }
            sawMte2 |= e.pipe == uint8_t(sage::npu::PipeId::MTE2) && e.bytes == 4096 * sizeof(float);
            sawMte3 |= e.pipe == uint8_t(sage::npu::PipeId::MTE3);
        }
        QVERIFY(sawAdd && sawMte2 && sawMte3);
        QVERIFY(r.cores[0].pipes.busy[size_t(sage::npu::PipeId::MTE2)] > 0);
    }
    // The L2 (L2Model.h): a repeated launch finds the share of its footprint the L2 holds.
    void aRepeatedLaunchWhoseDataFitsInL2IsFasterThanHbm() {
        sage::npu::DeviceProfile hbmOnly, withL2 = withFullL2();
        AddTiling t{48 * 2 * 4096, 4096, 2, 0};  // 3 x 1.5 MiB: fits; 48 cores make the chip rate bind
        uint64_t hbm = cyclesOf(t, 48, hbmOnly), l2 = cyclesOf(t, 48, withL2);
        qInfo("fits in L2: HBM only %llu, with L2 %llu cycles", (unsigned long long)hbm, (unsigned long long)l2);
        QVERIFY2(double(l2) < 0.6 * double(hbm), "data the L2 holds must move faster than HBM's");
        // A single core is capped by its own MTE rate, not the chip's: the L2 changes only latency,
        // which double buffering hides (the order the port serves transfers in moves it a little).
        uint64_t hbm1 = cyclesOf(t, 1, hbmOnly), l21 = cyclesOf(t, 1, withL2);
        qInfo("one core: HBM only %llu, with L2 %llu cycles", (unsigned long long)hbm1, (unsigned long long)l21);
        QVERIFY2(std::abs(double(l21) / double(hbm1) - 1.0) < 0.05, "one core is capped by its own MTE rate");
    }
    void aFootprintLargerThanTheL2FindsOnlyItsShare() {
        sage::npu::DeviceProfile withL2;
        withL2.l2Bytes = 6ull << 20;
        withL2.l2BytesPerCycle = 4 * withL2.chipGmBytesPerCycle;
        AddTiling t{48 * 8 * 4096, 4096, 2, 0};  // 3 x 6 MiB = 18 MiB: a third fits
        NpuHarness h(withL2);
        float* x = h.gm<float>(t.total);
        float* y = h.gm<float>(t.total);
        float* z = h.gm<float>(t.total);
        ICPU_RUN_KF(timed_add, 48, (GM_ADDR)x, (GM_ADDR)y, (GM_ADDR)z, t);
        QCOMPARE(h.last().gmFootprintBytes, uint64_t(18) << 20);
        QVERIFY(std::abs(h.last().l2Share - 1.0 / 3.0) < 1e-9);
        uint64_t share = h.last().totalCycles;
        withL2.l2Bytes = 64ull << 20;
        uint64_t all = cyclesOf(t, 48, withL2), none = cyclesOf(t, 48, {});
        qInfo("18 MiB: all in L2 %llu, a third %llu, none %llu cycles", (unsigned long long)all,
              (unsigned long long)share, (unsigned long long)none);
        QVERIFY(all < share && share < none);
    }
    void aPipesTransfersRunInOrderAndOverlapOnlyTheirLatency() {
        // One MTE queue moves one transfer at a time, in program order; the next starts moving
        // while the previous one's data is still in flight (its latency), as a DMA queue with
        // outstanding requests does. docs/device-model.md "Data movement".
        sage::npu::DeviceProfile prof;
        NpuHarness h(prof);
        const uint32_t n = 8192;  // 32 KiB each: ~275 cycles on the port, 307 of latency
        float* x = h.gm<float>(2 * n);
        ICPU_RUN_KF(two_copies, 1, (GM_ADDR)x, n);
        std::vector<sage::npu::TimelineEvent> mte2;
        for (const auto& e : h.last().events)
            if (e.pipe == uint8_t(sage::npu::PipeId::MTE2)) mte2.push_back(e);
        QCOMPARE(mte2.size(), size_t(2));
        const auto& first = mte2[0];
        const auto& second = mte2[1];
        QVERIFY(second.start > first.start);                                        // in order
        QVERIFY(second.start >= first.end - prof.gmReadLatencyCycles);              // after its transfer
        QVERIFY2(second.start < first.end, "the latency of the first overlaps the second transfer");
    }
    void aScalarGmReadThatMissesTheCacheIsCheaperFromL2() {
        auto cycles = [](sage::npu::DeviceProfile p) {
            NpuHarness h(std::move(p));
            const uint32_t n = 512;
            float* x = h.gm<float>(n * 16);
            float* y = h.gm<float>(8);
            ICPU_RUN_KF(strided_scalar_sum, 1, (GM_ADDR)x, (GM_ADDR)y, n);
            return h.last().totalCycles - h.last().launchOverheadCycles;
        };
        uint64_t hbm = cycles({}), l2 = cycles(withFullL2());
        qInfo("512 strided scalar reads: HBM %llu, L2 %llu cycles", (unsigned long long)hbm, (unsigned long long)l2);
        // 512 misses at 307 cycles against 50: the walk is several times faster from L2.
        QVERIFY2(double(hbm) / double(l2) > 3.0, qPrintable(QString::number(double(hbm) / double(l2))));
    }
    void theLaunchCostIsPaidOncePerLaunch() {
        sage::npu::DeviceProfile prof;
        prof.launchOverheadCycles = 5000;
        NpuHarness h(prof);
        AddTiling t{2 * 4096, 4096, 2, 0};
        float* x = h.gm<float>(t.total);
        float* y = h.gm<float>(t.total);
        float* z = h.gm<float>(t.total);
        ICPU_RUN_KF(timed_add, 2, (GM_ADDR)x, (GM_ADDR)y, (GM_ADDR)z, t);
        uint64_t first = h.last().totalCycles;
        QCOMPARE(h.last().launchOverheadCycles, uint64_t(5000));
        ICPU_RUN_KF(timed_add, 2, (GM_ADDR)x, (GM_ADDR)y, (GM_ADDR)z, t);
        QCOMPARE(h.last().totalCycles, first);  // the second launch pays it again, no more
        uint64_t body = first - 5000;
        QVERIFY(body > 0 && body < 5000);
    }
};

QTEST_MAIN(TestNpuTiming)
#include "test_npu_timing.moc"
