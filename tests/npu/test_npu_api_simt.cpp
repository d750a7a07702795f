// The SIMT API (simt_api/asc_simt.h): SIMT functions launched from SIMD kernels and __global__
// SIMT kernels run every thread on the simulator; values against plain C++, the device's GM
// writes accounted, barriers, warp functions, atomics, and misuse reported with the thread.
#include "NpuHarness.h"

#include "simt_api/asc_simt.h"
#include "simt_api/common_functions.h"

#include <cstring>
#include <numeric>

using namespace AscendC;

namespace {

// out[i] = 2 * in[i] + 1 over n elements, grid-stride: every block's threads take a slice.
__simt_vf__ __aicore__ inline void axpbSimt(uint32_t n, __gm__ float* in, __gm__ float* out) {
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        out[i] = 2.0f * in[i] + 1.0f;
}
extern "C" __global__ __aicore__ void axpb_kernel(GM_ADDR in, GM_ADDR out, uint32_t n, uint32_t threads) {
    asc_vf_call<axpbSimt>(dim3(threads), n, (__gm__ float*)in, (__gm__ float*)out);
}

// A __global__ SIMT kernel with a 2-D block: each thread one element of a rows x cols matrix,
// threads past the data (the tail) do nothing.
__global__ void transposeKernel(const float* in, float* out, uint32_t rows, uint32_t cols) {
    const uint32_t c = blockIdx.x * blockDim.x + threadIdx.x;
    const uint32_t r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols) out[c * rows + r] = in[r * cols + c];
}

// Reverses each block's 64 elements through a barrier: every thread stores, all wait, then each
// reads a neighbour's value that another thread wrote.
__simt_vf__ __aicore__ inline void reverseSimt(__gm__ int32_t* data, __gm__ int32_t* out) {
    const uint32_t base = blockIdx.x * blockDim.x;
    const uint32_t t = threadIdx.x;
    data[base + t] = int32_t(t * t);
    asc_syncthreads();
    out[base + t] = data[base + blockDim.x - 1 - t];
}
extern "C" __global__ __aicore__ void reverse_kernel(GM_ADDR data, GM_ADDR out) {
    asc_vf_call<reverseSimt>(dim3(64), (__gm__ int32_t*)data, (__gm__ int32_t*)out);
}

// A histogram with atomics: many threads add to the same bins.
__simt_vf__ __aicore__ inline void histogramSimt(uint32_t n, __gm__ int32_t* values, __gm__ uint32_t* bins) {
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        asc_atomic_add(bins + values[i] % 8, 1u);
}
extern "C" __global__ __aicore__ void histogram_kernel(GM_ADDR values, GM_ADDR bins, uint32_t n) {
    asc_vf_call<histogramSimt>(dim3(128), n, (__gm__ int32_t*)values, (__gm__ uint32_t*)bins);
}

// Warp functions: each warp's sum by asc_reduce_add and by a shfl_down tree, lane 0 of each
// warp broadcast by asc_shfl, the odd lanes by asc_ballot.
__simt_vf__ __aicore__ inline void warpSimt(__gm__ float* in, __gm__ float* sums, __gm__ float* treeSums,
                                            __gm__ float* firsts, __gm__ uint32_t* ballots) {
    const uint32_t t = threadIdx.x, warp = t / 32;
    const float v = in[t];
    const float sum = asc_reduce_add(v);
    float tree = v;
    for (uint32_t offset = 16; offset > 0; offset /= 2) tree += asc_shfl_down(tree, offset);
    const float first = asc_shfl(v, 0);
    const uint32_t odd = asc_ballot(int32_t(t & 1u));
    if (t % 32 == 0) {
        sums[warp] = sum;
        treeSums[warp] = tree;
        ballots[warp] = odd;
    }
    firsts[t] = first;
}
extern "C" __global__ __aicore__ void warp_kernel(GM_ADDR in, GM_ADDR sums, GM_ADDR tree, GM_ADDR firsts,
                                                  GM_ADDR ballots) {
    asc_vf_call<warpSimt>(dim3(96), (__gm__ float*)in, (__gm__ float*)sums, (__gm__ float*)tree,
                          (__gm__ float*)firsts, (__gm__ uint32_t*)ballots);
}

// Thread `bad` reads one element past the data through a checked load.
__simt_vf__ __aicore__ inline void overreadSimt(uint32_t n, uint32_t bad, __gm__ float* in, __gm__ float* out) {
    const uint32_t i = threadIdx.x;
    if (i < n || i == bad) out[i < n ? i : 0] = asc_ldcg(in + i);
}
extern "C" __global__ __aicore__ void overread_kernel(GM_ADDR in, GM_ADDR out, uint32_t n, uint32_t bad) {
    asc_vf_call<overreadSimt>(dim3(64), n, bad, (__gm__ float*)in, (__gm__ float*)out);
}

__simt_vf__ __aicore__ inline void nothingSimt(__gm__ float* out) { out[threadIdx.x] = 1.0f; }
extern "C" __global__ __aicore__ void bad_dims_kernel(GM_ADDR out, uint32_t x, uint32_t y) {
    asc_vf_call<nothingSimt>(dim3(x, y), (__gm__ float*)out);
}

// Half the threads wait at a barrier while the other half wait at a warp shuffle: a deadlock.
__simt_vf__ __aicore__ inline void deadlockSimt(__gm__ float* out) {
    if (threadIdx.x < 16) asc_syncthreads();
    else out[threadIdx.x] = asc_shfl(1.0f, 0);
}
extern "C" __global__ __aicore__ void deadlock_kernel(GM_ADDR out) {
    asc_vf_call<deadlockSimt>(dim3(32), (__gm__ float*)out);
}

__simt_vf__ __aicore__ inline void divideSimt(uint32_t n, uint32_t magic, uint32_t shift, __gm__ uint32_t* out) {
    for (uint32_t i = threadIdx.x; i < n; i += blockDim.x) out[i] = Simt::UintDiv(i * 977u, magic, shift);
}
extern "C" __global__ __aicore__ void divide_kernel(GM_ADDR out, uint32_t n, uint32_t divisor) {
    uint32_t magic = 0, shift = 0;
    GetUintDivMagicAndShift(magic, shift, divisor);
    asc_vf_call<divideSimt>(dim3(256), n, magic, shift, (__gm__ uint32_t*)out);
}

// SIMT threads fill a UB buffer (through checked stores at the UB address GetPhyAddr gives),
// then MTE3 copies it out: with the V -> MTE3 flag when `synced`, without it otherwise.
__simt_vf__ __aicore__ inline void fillUbSimt(__ubuf__ float* ub, float scale) {
    asc_stcg(ub + threadIdx.x, float(threadIdx.x) * scale);
}
extern "C" __global__ __aicore__ void ub_fill_kernel(GM_ADDR out, uint32_t synced, float scale) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256 * sizeof(float));
    LocalTensor<float> ub = buf.Get<float>();
    asc_vf_call<fillUbSimt>(dim3(256), (__ubuf__ float*)ub.GetPhyAddr(), scale);
    if (synced) {
        SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
        WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    }
    GlobalTensor<float> gm;
    gm.SetGlobalBuffer((__gm__ float*)out, 256);
    DataCopy(gm, ub, 256);
}

// Shuffles inside 16-lane segments: up by 3 (the segment's first 3 lanes keep their own value),
// xor with 5 (a butterfly partner inside the segment).
__simt_vf__ __aicore__ inline void segmentSimt(__gm__ int32_t* up, __gm__ int32_t* butterfly) {
    const int32_t v = int32_t(threadIdx.x) * 10;
    up[threadIdx.x] = asc_shfl_up(v, 3u, 16);
    butterfly[threadIdx.x] = asc_shfl_xor(v, 5, 16);
}
extern "C" __global__ __aicore__ void segment_kernel(GM_ADDR up, GM_ADDR butterfly) {
    asc_vf_call<segmentSimt>(dim3(64), (__gm__ int32_t*)up, (__gm__ int32_t*)butterfly);
}

} // namespace

class TestNpuApiSimt : public QObject {
    Q_OBJECT
private slots:
    void gridStrideLoopOverBlocksAndThreadsMatchesReference() {
        NpuHarness h;
        const uint32_t n = 1000;  // not a multiple of 4 blocks x 96 threads: a tail
        float* in = h.gmRandom<float>(n, -4, 4, 7);
        float* out = h.gm<float>(n);
        std::memset(out, 0xff, n * sizeof(float));  // a NaN pattern the results overwrite
        h.sim.trackGmWrites(out, n * sizeof(float));
        ICPU_RUN_KF(axpb_kernel, 4, (GM_ADDR)in, (GM_ADDR)out, n, 96u);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (uint32_t i = 0; i < n; ++i) QCOMPARE(out[i], 2.0f * in[i] + 1.0f);
        // The threads' stores are the device's writes, not plain C++ behind the simulator's back.
        QCOMPARE(h.sim.unaccountedGmBytes(out).count, uint64_t(0));
        // GM bytes written: those the launch changed (a store of the byte already there is not seen).
        uint64_t changed = 0;
        for (uint32_t i = 0; i < n; ++i) {
            const float v = 2.0f * in[i] + 1.0f;
            const auto* b = reinterpret_cast<const uint8_t*>(&v);
            for (size_t k = 0; k < sizeof v; ++k) changed += b[k] != 0xff;
        }
        QCOMPARE(h.last().gmBytesWritten, changed);
    }

    void simtLaunchIsCostedOnTheVectorPipe() {
        NpuHarness h;
        const uint32_t n = 4096;
        float* in = h.gmRandom<float>(n, -1, 1, 3);
        float* out = h.gm<float>(n);
        ICPU_RUN_KF(axpb_kernel, 1, (GM_ADDR)in, (GM_ADDR)out, n, 32u);
        const uint64_t oneWarp = h.last().totalCycles;
        bool onVector = false;
        for (const auto& e : h.last().events) onVector |= e.pipe == uint8_t(sage::npu::PipeId::V);
        QVERIFY(onVector);
        ICPU_RUN_KF(axpb_kernel, 1, (GM_ADDR)in, (GM_ADDR)out, n, 2048u);
        QVERIFY2(h.last().totalCycles > oneWarp, "64 warps issue more than one warp");
    }

    void globalKernelWithTwoDimensionalBlocksAndTail() {
        NpuHarness h;
        const uint32_t rows = 37, cols = 45;
        float* in = h.gmRandom<float>(rows * cols, -1, 1, 11);
        float* out = h.gm<float>(rows * cols);
        h.sim.trackGmWrites(out, rows * cols * sizeof(float));
        // 16 x 8 threads per block, a 3 x 5 grid: 48 x 40 threads cover 45 x 37 with a tail.
        sage::simt::launchKernel("transpose", dim3(3, 5), dim3(16, 8), &transposeKernel, sage::npu::Loc::current(),
                                 (const float*)in, out, rows, cols);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        QCOMPARE(h.last().blockDim, 15u);
        for (uint32_t r = 0; r < rows; ++r)
            for (uint32_t c = 0; c < cols; ++c) QCOMPARE(out[c * rows + r], in[r * cols + c]);
        QCOMPARE(h.sim.unaccountedGmBytes(out).count, uint64_t(0));
    }

    void barrierMakesOtherThreadsStoresVisible() {
        NpuHarness h;
        int32_t* data = h.gm<int32_t>(2 * 64);
        int32_t* out = h.gm<int32_t>(2 * 64);
        ICPU_RUN_KF(reverse_kernel, 2, (GM_ADDR)data, (GM_ADDR)out);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (uint32_t b = 0; b < 2; ++b)
            for (int32_t t = 0; t < 64; ++t) QCOMPARE(out[b * 64 + t], (63 - t) * (63 - t));
    }

    void atomicAddCountsEveryThread() {
        NpuHarness h;
        const uint32_t n = 3001;
        int32_t* values = h.gm<int32_t>(n);
        for (uint32_t i = 0; i < n; ++i) values[i] = int32_t(i * 7 + i / 3);
        uint32_t* bins = h.gm<uint32_t>(8);
        std::fill(bins, bins + 8, 0u);
        ICPU_RUN_KF(histogram_kernel, 3, (GM_ADDR)values, (GM_ADDR)bins, n);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        uint32_t expected[8] = {};
        for (uint32_t i = 0; i < n; ++i) ++expected[values[i] % 8];
        for (int b = 0; b < 8; ++b) QCOMPARE(bins[b], expected[b]);
        QCOMPARE(std::accumulate(bins, bins + 8, 0u), n);
    }

    void warpShuffleReduceAndBallot() {
        NpuHarness h;
        float* in = h.gm<float>(96);
        for (int i = 0; i < 96; ++i) in[i] = float(i % 13) - 4.0f;
        float* sums = h.gm<float>(3);
        float* tree = h.gm<float>(3);
        float* firsts = h.gm<float>(96);
        uint32_t* ballots = h.gm<uint32_t>(3);
        ICPU_RUN_KF(warp_kernel, 1, (GM_ADDR)in, (GM_ADDR)sums, (GM_ADDR)tree, (GM_ADDR)firsts, (GM_ADDR)ballots);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (int w = 0; w < 3; ++w) {
            float expected = 0;
            for (int l = 0; l < 32; ++l) expected += in[w * 32 + l];
            QCOMPARE(sums[w], expected);
            QCOMPARE(tree[w], expected);
            QCOMPARE(ballots[w], 0xAAAAAAAAu);
            for (int l = 0; l < 32; ++l) QCOMPARE(firsts[w * 32 + l], in[w * 32]);
        }
    }

    void shufflesStayInsideTheirSegment() {
        NpuHarness h;
        int32_t* up = h.gm<int32_t>(64);
        int32_t* butterfly = h.gm<int32_t>(64);
        ICPU_RUN_KF(segment_kernel, 1, (GM_ADDR)up, (GM_ADDR)butterfly);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (int t = 0; t < 64; ++t) {
            QCOMPARE(up[t], (t % 16 < 3 ? t : t - 3) * 10);
            QCOMPARE(butterfly[t], (t ^ 5) * 10);
        }
    }

    void magicDivisionMatchesIntegerDivision() {
        NpuHarness h;
        for (uint32_t divisor : {1u, 3u, 7u, 64u, 1000u, 65537u}) {
            const uint32_t n = 700;
            uint32_t* out = h.gm<uint32_t>(n);
            ICPU_RUN_KF(divide_kernel, 1, (GM_ADDR)out, n, divisor);
            for (uint32_t i = 0; i < n; ++i) QCOMPARE(out[i], i * 977u / divisor);
        }
        uint64_t magic = 0, shift = 0;
        GetUintDivMagicAndShift(magic, shift, uint64_t(1) << 40 | 12345);
        const uint64_t big = 0xfedcba9876543210ull;
        QCOMPARE(Simt::UintDiv(big, magic, shift), big / ((uint64_t(1) << 40) | 12345));
    }

    void outOfBoundsAccessNamesTheThread() {
        NpuHarness h;
        float* in = h.gmRandom<float>(40, 0, 1, 5);
        float* out = h.gm<float>(40);
        ICPU_RUN_KF(overread_kernel, 1, (GM_ADDR)in, (GM_ADDR)out, 40u, 45u);
        const auto* d = h.find("simt_out_of_bounds");
        QVERIFY2(d, h.describe().c_str());
        QVERIFY2(d->message.find("thread (45, 0, 0)") != std::string::npos, d->message.c_str());
        QVERIFY2(d->message.find("asc_ldcg") != std::string::npos, d->message.c_str());
        QCOMPARE(d->line, lineOf(__FILE__, "out[i < n ? i : 0] = asc_ldcg"));
        QVERIFY(h.last().aborted);
        // The same kernel with every thread inside the data runs clean.
        ICPU_RUN_KF(overread_kernel, 1, (GM_ADDR)in, (GM_ADDR)out, 40u, 0u);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (int i = 0; i < 40; ++i) QCOMPARE(out[i], in[i]);
    }

    void badLaunchDimsAreAnError() {
        NpuHarness h;
        float* out = h.gm<float>(4096);
        ICPU_RUN_KF(bad_dims_kernel, 1, (GM_ADDR)out, 64u, 64u);  // 4096 threads: over the 2048 limit
        const auto* d = h.find("simt_launch_invalid");
        QVERIFY2(d, h.describe().c_str());
        QVERIFY2(d->message.find("4096 threads") != std::string::npos, d->message.c_str());
        ICPU_RUN_KF(bad_dims_kernel, 1, (GM_ADDR)out, 0u, 1u);
        QVERIFY2(h.find("simt_launch_invalid"), h.describe().c_str());
        ICPU_RUN_KF(bad_dims_kernel, 1, (GM_ADDR)out, 32u, 2u);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
    }

    void mismatchedBarrierAndWarpCallIsADeadlock() {
        NpuHarness h;
        float* out = h.gm<float>(32);
        ICPU_RUN_KF(deadlock_kernel, 1, (GM_ADDR)out);
        const auto* d = h.find("simt_deadlock");
        QVERIFY2(d, h.describe().c_str());
        QVERIFY2(d->message.find("16 threads wait at asc_syncthreads") != std::string::npos, d->message.c_str());
    }

    void simtCallOutsideALaunchIsAnError() {
        NpuHarness h;
        float* out = h.gm<float>(1);
        auto kernel = [](GM_ADDR) { asc_syncthreads(); };
        ICPU_RUN_KF(kernel, 1, (GM_ADDR)out);
        const auto* d = h.find("simt_outside_launch");
        QVERIFY2(d, h.describe().c_str());
        QVERIFY2(d->message.find("asc_syncthreads") != std::string::npos, d->message.c_str());
    }

    void ubStoresAreVectorWritesForRaceTracking() {
        NpuHarness h;
        float* out = h.gm<float>(256);
        ICPU_RUN_KF(ub_fill_kernel, 1, (GM_ADDR)out, 1u, 0.5f);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (int i = 0; i < 256; ++i) QCOMPARE(out[i], float(i) * 0.5f);
        // Other values (UB keeps the last launch's contents; an unchanged byte is not seen as written).
        ICPU_RUN_KF(ub_fill_kernel, 1, (GM_ADDR)out, 0u, 0.25f);
        QVERIFY2(h.find("race_raw"), h.describe().c_str());
    }

    void halfConversions() {
        QCOMPARE(__half2float(__float2half(1.5f)), 1.5f);
        QCOMPARE(__half2float(__float2half_rn_sat(1e6f)), 65504.0f);
        QCOMPARE(__half2float(__float2half_rn_sat(-1e6f)), -65504.0f);
        QVERIFY(std::isinf(__half2float(__float2half(1e6f))));
        QCOMPARE(__bfloat162float(__float2bfloat16(2.0f)), 2.0f);
        const half2 sum = __floats2half2_rn(1.5f, -2.0f) + __halves2half2(half(0.25f), half(4.0f));
        QCOMPARE(float(__low2half(sum)), 1.75f);
        QCOMPARE(float(__high2half(sum)), 2.0f);
        QCOMPARE(sizeof(half2), size_t(4));
    }
};

QTEST_APPLESS_MAIN(TestNpuApiSimt)
#include "test_npu_api_simt.moc"
