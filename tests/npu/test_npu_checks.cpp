// Every simulator check, triggered by a small kernel; each asserts the diagnostic's kind and
// the kernel source line it points at, and that the host survives.
#include "NpuHarness.h"

using namespace AscendC;

namespace {
uint32_t g_line = 0;  // set by a kernel to the line of the call under test
constexpr int32_t N = 1024;

extern "C" __global__ __aicore__ void k_capacity(GM_ADDR) {
    TPipe pipe;
    TQue<TPosition::VECIN, 2> a;
    TQue<TPosition::VECOUT, 2> b;
    pipe.InitBuffer(a, 2, 64 * 1024);
    g_line = __LINE__ + 1;
    pipe.InitBuffer(b, 2, 34 * 1024);  // 128 KB + 68 KB = 200704 B > 196608 B of UB
}

extern "C" __global__ __aicore__ void k_misaligned(GM_ADDR x) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, N * sizeof(half));
    GlobalTensor<half> g;
    g.SetGlobalBuffer((__gm__ half*)x, N);
    LocalTensor<half> t = q.AllocTensor<half>();
    g_line = __LINE__ + 1;
    DataCopy(t[3], g, 256);  // 6-byte offset
}

extern "C" __global__ __aicore__ void k_not32(GM_ADDR x, GM_ADDR y) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, N * sizeof(half));
    GlobalTensor<half> gx, gy;
    gx.SetGlobalBuffer((__gm__ half*)x, N);
    gy.SetGlobalBuffer((__gm__ half*)y, N);
    LocalTensor<half> t = q.AllocTensor<half>();
    g_line = __LINE__ + 1;
    DataCopy(t, gx, 40);  // 80 bytes: rounded down to 64
    q.EnQue(t);
    t = q.DeQue<half>();
    DataCopy(gy, t, 32);
    q.FreeTensor(t);
}

extern "C" __global__ __aicore__ void k_gm_oob(GM_ADDR x) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, N * sizeof(half));
    GlobalTensor<half> g;
    g.SetGlobalBuffer((__gm__ half*)x + 64 * GetBlockIdx(), 64);
    LocalTensor<half> t = q.AllocTensor<half>();
    g_line = __LINE__ + 1;
    DataCopy(t, g, 128);  // only 64 elements were given to SetGlobalBuffer
}

extern "C" __global__ __aicore__ void k_gm_oob_alloc(GM_ADDR x) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, N * sizeof(half));
    GlobalTensor<half> g;
    g.SetGlobalBuffer((__gm__ half*)x + 512);  // no size: checked against the allocation
    LocalTensor<half> t = q.AllocTensor<half>();
    g_line = __LINE__ + 1;
    DataCopy(t, g, 1024);
}

extern "C" __global__ __aicore__ void k_too_many_allocs(GM_ADDR) {
    TPipe pipe;
    TQue<TPosition::VECCALC, 2> q[5];
    for (auto& qq : q) pipe.InitBuffer(qq, 2, 256);
    for (int i = 0; i < 8; ++i) q[i / 2].AllocTensor<half>();
    g_line = __LINE__ + 1;
    q[4].AllocTensor<half>();
}

extern "C" __global__ __aicore__ void k_no_free_buffer(GM_ADDR) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 256);
    q.AllocTensor<half>();
    g_line = __LINE__ + 1;
    q.AllocTensor<half>();
}

extern "C" __global__ __aicore__ void k_enque_depth(GM_ADDR) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 2, 256);
    LocalTensor<half> a = q.AllocTensor<half>();
    LocalTensor<half> b = q.AllocTensor<half>();
    q.EnQue(a);
    g_line = __LINE__ + 1;
    q.EnQue(b);
}

extern "C" __global__ __aicore__ void k_deque_empty(GM_ADDR) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 256);
    g_line = __LINE__ + 1;
    q.DeQue<half>();
}

extern "C" __global__ __aicore__ void k_double_setflag(GM_ADDR) {
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    g_line = __LINE__ + 1;
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
}

extern "C" __global__ __aicore__ void k_unwaited_setflag(GM_ADDR) {
    g_line = __LINE__ + 1;
    SetFlag<HardEvent::V_MTE3>(EVENT_ID1);
}

extern "C" __global__ __aicore__ void k_bad_event(GM_ADDR) {
    g_line = __LINE__ + 1;
    SetFlag<HardEvent::MTE2_V>(9);
}

extern "C" __global__ __aicore__ void k_deadlock(GM_ADDR) {
    g_line = __LINE__ + 1;
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID2);
}

extern "C" __global__ __aicore__ void k_count_too_big(GM_ADDR) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> a, b;
    pipe.InitBuffer(a, 512);
    pipe.InitBuffer(b, 512);
    LocalTensor<float> ta = a.Get<float>(), tb = b.Get<float>();
    g_line = __LINE__ + 1;
    Add(ta, ta, tb, 256);  // 1024 bytes, the tensors hold 512
}

extern "C" __global__ __aicore__ void k_repeat_too_big(GM_ADDR) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> a;
    pipe.InitBuffer(a, 1024);
    LocalTensor<float> ta = a.Get<float>();
    g_line = __LINE__ + 1;
    Add(ta, ta, ta, 64, 300, {1, 1, 1, 8, 8, 8});
}

extern "C" __global__ __aicore__ void k_assert(GM_ADDR) {
    int tiles = 0;
    g_line = __LINE__ + 1;
    ASSERT(tiles != 0 && "tiles must be positive");
}

// Races on a TBuf used by two pipes without flags.
extern "C" __global__ __aicore__ void k_race_raw(GM_ADDR x) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, N * sizeof(half));
    GlobalTensor<half> g;
    g.SetGlobalBuffer((__gm__ half*)x, N);
    LocalTensor<half> t = buf.Get<half>();
    DataCopy(t, g, N);  // MTE2 writes
    g_line = __LINE__ + 1;
    Adds(t, t, half(1.0f), N);  // V reads while MTE2 may still be writing
}

extern "C" __global__ __aicore__ void k_race_fixed(GM_ADDR x) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, N * sizeof(half));
    GlobalTensor<half> g;
    g.SetGlobalBuffer((__gm__ half*)x, N);
    LocalTensor<half> t = buf.Get<half>();
    DataCopy(t, g, N);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Adds(t, t, half(1.0f), N);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(g, t, N);
}

// k_race_raw with a data synchronisation barrier between the copy and its reader.
extern "C" __global__ __aicore__ void k_race_dsb(GM_ADDR x) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, N * sizeof(half));
    GlobalTensor<half> g;
    g.SetGlobalBuffer((__gm__ half*)x, N);
    LocalTensor<half> t = buf.Get<half>();
    DataCopy(t, g, N);
    DataSyncBarrier<MemDsbT::UB>();
    Adds(t, t, half(1.0f), N);
}

extern "C" __global__ __aicore__ void k_race_war(GM_ADDR x) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf, out;
    pipe.InitBuffer(buf, N * sizeof(half));
    pipe.InitBuffer(out, N * sizeof(half));
    GlobalTensor<half> g;
    g.SetGlobalBuffer((__gm__ half*)x, N);
    LocalTensor<half> t = buf.Get<half>(), o = out.Get<half>();
    DataCopy(t, g, N);
    PipeBarrier<PIPE_ALL>();
    Adds(o, t, half(1.0f), N);  // V reads t
    g_line = __LINE__ + 1;
    DataCopy(t, g, N);  // MTE2 overwrites t while V may still read it
}

// The add sample with its DeQue of x removed: V reads x that MTE2 is still writing.
extern "C" __global__ __aicore__ void k_missing_deque(GM_ADDR x, GM_ADDR z) {
    TPipe pipe;
    TQue<TPosition::VECIN, 2> inX;
    TQue<TPosition::VECOUT, 2> outZ;
    pipe.InitBuffer(inX, 2, 256 * sizeof(half));
    pipe.InitBuffer(outZ, 2, 256 * sizeof(half));
    GlobalTensor<half> gx, gz;
    gx.SetGlobalBuffer((__gm__ half*)x, N);
    gz.SetGlobalBuffer((__gm__ half*)z, N);
    LocalTensor<half> xl = inX.AllocTensor<half>();
    DataCopy(xl, gx, 256);
    inX.EnQue(xl);
    // LocalTensor<half> xl2 = inX.DeQue<half>();   <- removed
    LocalTensor<half> zl = outZ.AllocTensor<half>();
    g_line = __LINE__ + 1;
    Adds(zl, xl, half(2.0f), 256);
    outZ.EnQue(zl);
    zl = outZ.DeQue<half>();
    DataCopy(gz, zl, 256);
    outZ.FreeTensor(zl);
}

} // namespace

class TestNpuChecks : public QObject {
    Q_OBJECT

    // Runs `kernel` and asserts a diagnostic of `kind` at g_line, then that the host is unharmed.
    template <typename K, typename... A>
    const sage::npu::SimDiagnostic* expect(NpuHarness& h, const char* kind, K kernel, A... args) {
        g_line = 0;
        ICPU_RUN_KF(kernel, 1, args...);
        const auto* d = h.find(kind);
        if (!d) {
            QTest::qFail(("no diagnostic '" + std::string(kind) + "'; got:\n" + h.describe()).c_str(), __FILE__,
                         __LINE__);
            return nullptr;
        }
        if (d->line != g_line) {
            QTest::qFail(("diagnostic at line " + std::to_string(d->line) + ", expected " + std::to_string(g_line)).c_str(),
                         __FILE__, __LINE__);
            return nullptr;
        }
        if (!QString::fromStdString(d->file).endsWith("test_npu_checks.cpp")) {
            QTest::qFail(("diagnostic file " + d->file).c_str(), __FILE__, __LINE__);
            return nullptr;
        }
        return d;
    }

private slots:
    void capacityExceededListsBuffers() {
        NpuHarness h;
        auto* d = expect(h, "capacity_exceeded", k_capacity, (GM_ADDR) nullptr);
        QVERIFY(d);
        QVERIFY2(d->message.find("TQue<VECIN> 2 x 65536 B") != std::string::npos, d->message.c_str());
        QVERIFY(d->message.find("196608") != std::string::npos);
        QVERIFY(h.last().aborted);
    }
    void misalignedLocalAddress() {
        NpuHarness h;
        QVERIFY(expect(h, "misaligned_address", k_misaligned, (GM_ADDR)h.gm<half>(N)));
    }
    void dataCopyNot32BytesRoundsDownWithWarning() {
        NpuHarness h;
        half* x = h.gmRandom<half>(N, 1, 2, 7);
        half* y = h.gm<half>(N);
        auto* d = expect(h, "datacopy_not_32b_multiple", k_not32, (GM_ADDR)x, (GM_ADDR)y);
        QVERIFY(d);
        QCOMPARE(d->severity, std::string("warning"));
        QVERIFY(!h.last().aborted);
        for (int i = 0; i < 32; ++i) QCOMPARE(y[i].bits, x[i].bits);  // the first 32 halfs arrived
    }
    void gmOutOfBoundsOfSetGlobalBuffer() {
        NpuHarness h;
        QVERIFY(expect(h, "gm_out_of_bounds", k_gm_oob, (GM_ADDR)h.gm<half>(N)));
    }
    void gmOutOfBoundsOfAllocation() {
        NpuHarness h;
        QVERIFY(expect(h, "gm_out_of_bounds", k_gm_oob_alloc, (GM_ADDR)h.gm<half>(N)));
    }
    void tooManyOutstandingAllocs() {
        NpuHarness h;
        QVERIFY(expect(h, "too_many_allocs", k_too_many_allocs, (GM_ADDR) nullptr));
    }
    void allocWithNoFreeBufferIsAHang() {
        NpuHarness h;
        auto* d = expect(h, "alloc_no_free_buffer", k_no_free_buffer, (GM_ADDR) nullptr);
        QVERIFY(d && d->message.find("waits forever") != std::string::npos);
    }
    void enqueBeyondDepth() {
        NpuHarness h;
        QVERIFY(expect(h, "enque_beyond_depth", k_enque_depth, (GM_ADDR) nullptr));
    }
    void dequeFromEmptyQueueIsAHang() {
        NpuHarness h;
        QVERIFY(expect(h, "deque_empty", k_deque_empty, (GM_ADDR) nullptr));
    }
    void setFlagTwiceIsReported() {
        NpuHarness h;
        QVERIFY(expect(h, "flag_unpaired", k_double_setflag, (GM_ADDR) nullptr));
    }
    void setFlagNeverWaitedIsAWarning() {
        NpuHarness h;
        auto* d = expect(h, "flag_unpaired", k_unwaited_setflag, (GM_ADDR) nullptr);
        QVERIFY(d && d->severity == "warning");
        QVERIFY(d->message.find("V_MTE3") != std::string::npos);
    }
    void badEventId() {
        NpuHarness h;
        QVERIFY(expect(h, "bad_event_id", k_bad_event, (GM_ADDR) nullptr));
    }
    void waitWithoutSetIsADeadlockNamingTheFlag() {
        NpuHarness h;
        auto* d = expect(h, "deadlock", k_deadlock, (GM_ADDR) nullptr);
        QVERIFY(d && d->message.find("MTE2_V>(EVENT_ID2)") != std::string::npos);
    }
    void vectorCountBeyondTensor() {
        NpuHarness h;
        QVERIFY(expect(h, "vector_count_exceeds_tensor", k_count_too_big, (GM_ADDR) nullptr));
    }
    void repeatAbove255() {
        NpuHarness h;
        QVERIFY(expect(h, "repeat_exceeds_255", k_repeat_too_big, (GM_ADDR) nullptr));
    }
    void failedAssert() {
        NpuHarness h;
        auto* d = expect(h, "assert_failed", k_assert, (GM_ADDR) nullptr);
        QVERIFY(d && d->message.find("tiles must be positive") != std::string::npos);
    }
    void rawRaceNamesBothLinesAndPipes() {
        NpuHarness h;
        auto* d = expect(h, "race_raw", k_race_raw, (GM_ADDR)h.gm<half>(N));
        QVERIFY(d);
        QCOMPARE(d->pipe, std::string("V"));
        QCOMPARE(d->otherPipe, std::string("MTE2"));
        QCOMPARE(d->otherLine, g_line - 2);
    }
    void flagsRemoveTheRace() {
        NpuHarness h;
        ICPU_RUN_KF(k_race_fixed, 1, (GM_ADDR)h.gm<half>(N));
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
    }
    void dataSyncBarrierRemovesTheRace() {
        NpuHarness h;
        ICPU_RUN_KF(k_race_dsb, 1, (GM_ADDR)h.gm<half>(N));
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
    }
    void warRace() {
        NpuHarness h;
        auto* d = expect(h, "race_war", k_race_war, (GM_ADDR)h.gm<half>(N));
        QVERIFY(d);
        QCOMPARE(d->pipe, std::string("MTE2"));
        QCOMPARE(d->otherPipe, std::string("V"));
    }
    void removingADeQueYieldsARace() {
        NpuHarness h;
        auto* d = expect(h, "race_raw", k_missing_deque, (GM_ADDR)h.gm<half>(N), (GM_ADDR)h.gm<half>(N));
        QVERIFY(d);
        QCOMPARE(d->otherPipe, std::string("MTE2"));
    }
    void hostSurvivesAndNextLaunchWorks() {
        NpuHarness h;
        ICPU_RUN_KF(k_deque_empty, 1, (GM_ADDR) nullptr);
        QVERIFY(h.last().aborted);
        ICPU_RUN_KF(k_race_fixed, 1, (GM_ADDR)h.gm<half>(N));
        QVERIFY(!h.last().aborted);
        QVERIFY(h.last().diagnostics.empty());
    }
    void invalidBlockDimIsRejected() {
        NpuHarness h;
        ICPU_RUN_KF(k_race_fixed, 0, (GM_ADDR)h.gm<half>(N));
        QVERIFY(h.find("launch_invalid"));
    }
};

QTEST_MAIN(TestNpuChecks)
#include "test_npu_checks.moc"
