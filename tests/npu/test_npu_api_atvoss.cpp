// The atvoss vector operator templates (core/npu/include/atvoss): operators written as a DAG and
// run by the elementwise, broadcast and reduce schedules on the simulated device, against plain
// C++; lengths that are not a multiple of the tile, several blocks, and misuse.
#include "NpuHarness.h"

#include <cmath>
#include <cstring>

// The headers the kernels include, at global scope as in a kernel build (the kernels' own names
// go to namespace atv).
#include "atvoss/broadcast/broadcast_sch.h"
#include "atvoss/elewise/elewise_sch.h"
#include "atvoss/reduce/reduce_sch.h"
#include "atvoss/util/dag.h"

namespace atv {
#include "kernels/atvoss/elewise_kernels.cpp"
#include "kernels/atvoss/broadcast_kernels.cpp"
#include "kernels/atvoss/reduce_kernels.cpp"
}

namespace {
using Brc = Ops::Base::BroadcastBaseTilingData;

// Strides of an input of shape `in` broadcast to `out` (same rank): 0 where in[a] == 1 < out[a].
void setInput(Brc& t, int k, const std::vector<int64_t>& in, const std::vector<int64_t>& out) {
    int64_t s = 1;
    for (int a = int(in.size()) - 1; a >= 0; --a) {
        t.inStrides[k][a] = (in[size_t(a)] == 1 && out[size_t(a)] != 1) ? 0 : s;
        s *= in[size_t(a)];
    }
}
Brc brcTiling(const std::vector<int64_t>& out) {
    Brc t{};
    t.rank = int64_t(out.size());
    for (size_t a = 0; a < out.size(); ++a) t.outDims[a] = out[a];
    return t;
}
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
    // Casts with a rounding mode (floor, ceil) and back, three outputs, two blocks.
    void elementwiseRoundingCastsToInt32() {
        NpuHarness h;
        const uint32_t n = 200;
        float* x = h.gmRandom<float>(n, -50, 50, 11);
        x[0] = 2.0f, x[1] = -2.0f, x[2] = -0.5f;
        int32_t* y0 = h.gm<int32_t>(n);
        int32_t* y1 = h.gm<int32_t>(n);
        float* y2 = h.gm<float>(n);
        Ops::Base::EleBaseTilingData t{};
        t.dim0 = n;
        ICPU_RUN_KF(atv::atvoss_rounding, 2, (GM_ADDR)x, (GM_ADDR)y0, (GM_ADDR)y1, (GM_ADDR)y2, t);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (uint32_t i = 0; i < n; ++i) {
            QCOMPARE(y0[i], int32_t(std::floor(x[i])));
            QCOMPARE(y1[i], int32_t(std::ceil(x[i])));
            QCOMPARE(y2[i], std::floor(x[i]));
        }
    }
    // A byte mask from Compare drives Select; both the values and the mask are written out.
    void elementwiseCompareAndSelectThroughAByteMask() {
        NpuHarness h;
        const uint32_t n = 333;
        float* x = h.gmRandom<float>(n, -4, 4, 12);
        x[0] = 0.0f;
        float* y = h.gm<float>(n);
        uint8_t* m = h.gm<uint8_t>(n);
        Ops::Base::EleBaseTilingData t{};
        t.dim0 = n;
        t.ubFormer = 128;
        ICPU_RUN_KF(atv::atvoss_leaky<float>, 2, (GM_ADDR)x, (GM_ADDR)y, (GM_ADDR)m, t);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (uint32_t i = 0; i < n; ++i) {
            QCOMPARE(int(m[i]), x[i] > 0 ? 1 : 0);
            QCOMPARE(y[i], x[i] > 0 ? x[i] : x[i] * 0.125f);
        }
        half* xh = h.gm<half>(n);
        for (uint32_t i = 0; i < n; ++i) xh[i] = half(x[i]);
        half* yh = h.gm<half>(n);
        ICPU_RUN_KF(atv::atvoss_leaky<half>, 1, (GM_ADDR)xh, (GM_ADDR)yh, (GM_ADDR)m, t);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (uint32_t i = 0; i < n; ++i) {
            const float v = float(xh[i]);
            QCOMPARE(float(yh[i]), v > 0 ? v : halfRound(v * 0.125f));
        }
    }
    // x0 of shape [3, 1, 37] and x1 of shape [1, 5, 1] broadcast to [3, 5, 37]: neither operand
    // has the output shape, rows are not a multiple of 32, two blocks.
    void broadcastOnBothInputsAcrossBlocks() {
        NpuHarness h;
        const std::vector<int64_t> out{3, 5, 37};
        float* a = h.gmRandom<float>(3 * 37, -2, 2, 4);
        float* b = h.gmRandom<float>(5, -2, 2, 5);
        float* y = h.gm<float>(3 * 5 * 37);
        Brc t = brcTiling(out);
        setInput(t, 0, {3, 1, 37}, out);
        setInput(t, 1, {1, 5, 1}, out);
        t.blockFormer = 8;   // 15 rows: 8 + 7
        t.ubFormer = 128;    // two padded rows per tile
        GM_ADDR tg = (GM_ADDR)h.gm<uint8_t>(sizeof(Brc));
        std::memcpy(tg, &t, sizeof t);
        ICPU_RUN_KF(atv::atvoss_brc_mul_sub<float>, 2, (GM_ADDR)a, (GM_ADDR)b, (GM_ADDR)y, tg);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 5; ++j)
                for (int k = 0; k < 37; ++k) {
                    const float x0 = a[i * 37 + k], x1 = b[j];
                    QCOMPARE(y[(i * 5 + j) * 37 + k], x0 * x1 - x0);
                }
    }
    // A run-time Var and a scalar GM input in a broadcast DAG (a [1, 90] input to [4, 90]).
    void broadcastWithAVarAndAScalarInput() {
        NpuHarness h;
        const std::vector<int64_t> out{4, 90};
        float* x = h.gmRandom<float>(90, -3, 3, 13);
        float* s = h.gm<float>(8);
        s[0] = 2.5f;
        float* y = h.gm<float>(4 * 90);
        Brc t = brcTiling(out);
        setInput(t, 0, {1, 90}, out);
        GM_ADDR tg = (GM_ADDR)h.gm<uint8_t>(sizeof(Brc));
        std::memcpy(tg, &t, sizeof t);
        ICPU_RUN_KF(atv::atvoss_brc_clamp_scale, 2, (GM_ADDR)x, (GM_ADDR)s, (GM_ADDR)y, tg, -1.0f);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (int r = 0; r < 4; ++r)
            for (int c = 0; c < 90; ++c) QCOMPARE(y[r * 90 + c], std::max(x[c], -1.0f) * 2.5f);
    }
    // A row longer than a tile is cut into column chunks (the last one partial).
    void broadcastLongRowsSplitIntoColumnChunks() {
        NpuHarness h;
        const std::vector<int64_t> out{2, 1000};
        int32_t* a = h.gm<int32_t>(2 * 1000);
        int32_t* b = h.gm<int32_t>(1000);
        for (int i = 0; i < 2000; ++i) a[i] = i % 97 - 40;
        for (int i = 0; i < 1000; ++i) b[i] = i % 13 - 6;
        int32_t* y = h.gm<int32_t>(2 * 1000);
        Brc t = brcTiling(out);
        setInput(t, 0, {2, 1000}, out);
        setInput(t, 1, {1, 1000}, out);
        t.ubFormer = 256;
        GM_ADDR tg = (GM_ADDR)h.gm<uint8_t>(sizeof(Brc));
        std::memcpy(tg, &t, sizeof t);
        ICPU_RUN_KF(atv::atvoss_brc_mul_sub<int32_t>, 1, (GM_ADDR)a, (GM_ADDR)b, (GM_ADDR)y, tg);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (int r = 0; r < 2; ++r)
            for (int c = 0; c < 1000; ++c) QCOMPARE(y[r * 1000 + c], a[r * 1000 + c] * b[c] - a[r * 1000 + c]);
    }
    // A stride the schedule cannot honour (a transposed input) is a run-time error, not garbage.
    void broadcastRejectsANonContiguousLastAxis() {
        NpuHarness h;
        const std::vector<int64_t> out{4, 8};
        float* a = h.gmRandom<float>(32, -1, 1, 6);
        float* b = h.gmRandom<float>(32, -1, 1, 7);
        float* y = h.gm<float>(32);
        Brc t = brcTiling(out);
        setInput(t, 0, {4, 8}, out);
        t.inStrides[1][0] = 1;
        t.inStrides[1][1] = 4;  // column-major
        GM_ADDR tg = (GM_ADDR)h.gm<uint8_t>(sizeof(Brc));
        std::memcpy(tg, &t, sizeof t);
        ICPU_RUN_KF(atv::atvoss_brc_mul_sub<float>, 1, (GM_ADDR)a, (GM_ADDR)b, (GM_ADDR)y, tg);
        QVERIFY(!h.last().diagnostics.empty());
        QVERIFY2(h.describe().find("last-axis stride") != std::string::npos, h.describe().c_str());
    }
    // Mean of rows of 1000 halves (accumulated in float): rows split over three blocks, the
    // reduced axis cut into tiles with a partial last one.
    void reduceMeanOfContiguousRowsInThePromotedType() {
        NpuHarness h;
        const int64_t rows = 7, R = 1000;
        half* x = h.gm<half>(size_t(rows * R));
        for (int64_t i = 0; i < rows * R; ++i) x[i] = half(float((i * 37) % 101) / 50.0f - 1.0f);
        half* y = h.gm<half>(size_t(rows));
        Ops::Base::ReduceOpTilingData t{};
        t.outerSize = rows;
        t.reduceSize = R;
        t.innerSize = 1;
        t.blockFormer = 3;
        t.ubFormer = 256;
        t.meanVar = 1.0f / float(R);
        GM_ADDR ws = (GM_ADDR)h.gm<uint8_t>(32);
        ICPU_RUN_KF((atv::atvoss_reduce_mean<1, 1, 1, half>), 3, (GM_ADDR)x, (GM_ADDR)y, ws, t);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (int64_t r = 0; r < rows; ++r) {
            double sum = 0;
            for (int64_t k = 0; k < R; ++k) sum += float(x[r * R + k]);
            QVERIFY2(std::fabs(float(y[r]) - sum / double(R)) <= 2e-3, std::to_string(r).c_str());
        }
    }
    // Max |x| over the middle axis of [3, 50, 45]: rows of the tile are combined column-wise.
    void reduceMaxAbsOverAMiddleAxis() {
        NpuHarness h;
        const int64_t A = 3, R = 50, I = 45;
        float* x = h.gmRandom<float>(size_t(A * R * I), -10, 10, 8);
        float* y = h.gm<float>(size_t(A * I));
        Ops::Base::ReduceOpTilingData t{};
        t.outerSize = A;
        t.reduceSize = R;
        t.innerSize = I;
        t.ubFormer = 512;  // eight padded rows per tile: 50 rows take seven tiles
        ICPU_RUN_KF(atv::atvoss_reduce_max_abs, 2, (GM_ADDR)x, (GM_ADDR)y, t);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (int64_t a = 0; a < A; ++a)
            for (int64_t i = 0; i < I; ++i) {
                float m = 0;
                for (int64_t r = 0; r < R; ++r) m = std::max(m, std::fabs(x[(a * R + r) * I + i]));
                QCOMPARE(y[a * I + i], m);
            }
    }
    // Folds without a vector instruction (product) and the final lane fold of a vector one (max).
    void reduceProductAndRowMaxOfContiguousRows() {
        NpuHarness h;
        const int64_t rows = 5, R = 70;
        float* x = h.gmRandom<float>(size_t(rows * R), 0.9f, 1.1f, 9);
        int32_t* xi = h.gm<int32_t>(size_t(rows * R));
        for (int64_t i = 0; i < rows * R; ++i) xi[i] = int32_t((i * 7919) % 1000) - 500;
        float* y = h.gm<float>(size_t(rows));
        int32_t* yi = h.gm<int32_t>(size_t(rows));
        Ops::Base::ReduceOpTilingData t{};
        t.outerSize = rows;
        t.reduceSize = R;
        t.ubFormer = 32;  // three chunks per row, the last one partial
        ICPU_RUN_KF(atv::atvoss_reduce_prod, 2, (GM_ADDR)x, (GM_ADDR)y, t);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        ICPU_RUN_KF(atv::atvoss_reduce_row_max, 2, (GM_ADDR)xi, (GM_ADDR)yi, t);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (int64_t r = 0; r < rows; ++r) {
            double p = 1;
            int32_t m = INT32_MIN;
            for (int64_t k = 0; k < R; ++k) p *= x[r * R + k], m = std::max(m, xi[r * R + k]);
            QVERIFY2(std::fabs(y[r] - p) <= 1e-5 * std::fabs(p), std::to_string(r).c_str());
            QCOMPARE(yi[r], m);
        }
    }
    // log-sum-exp over a middle axis with large inputs (no overflow), folded on the scalar unit.
    void reduceLogSumExpOverAMiddleAxis() {
        NpuHarness h;
        const int64_t R = 20, I = 9;
        float* x = h.gmRandom<float>(size_t(R * I), 80, 100, 10);
        float* y = h.gm<float>(size_t(I));
        Ops::Base::ReduceOpTilingData t{};
        t.outerSize = 1;
        t.reduceSize = R;
        t.innerSize = I;
        ICPU_RUN_KF(atv::atvoss_reduce_lse, 1, (GM_ADDR)x, (GM_ADDR)y, t);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (int64_t i = 0; i < I; ++i) {
            double m = -1e300, s = 0;
            for (int64_t r = 0; r < R; ++r) m = std::max(m, double(x[r * I + i]));
            for (int64_t r = 0; r < R; ++r) s += std::exp(double(x[r * I + i]) - m);
            QVERIFY2(std::fabs(y[i] - (m + std::log(s))) <= 1e-4 * std::fabs(m), std::to_string(i).c_str());
        }
    }
    // An empty reduced axis writes the value passed to Process.
    void reduceOverAnEmptyAxisWritesTheEmptyValue() {
        NpuHarness h;
        half* x = h.gm<half>(32);
        half* y = h.gm<half>(4);
        Ops::Base::ReduceOpTilingData t{};
        t.outerSize = 4;
        t.reduceSize = 0;
        GM_ADDR ws = (GM_ADDR)h.gm<uint8_t>(32);
        ICPU_RUN_KF((atv::atvoss_reduce_mean<1, 1, 1, half>), 1, (GM_ADDR)x, (GM_ADDR)y, ws, t);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (int i = 0; i < 4; ++i) QCOMPARE(float(y[i]), -1.0f);
    }
};

QTEST_GUILESS_MAIN(TestNpuApiAtvoss)
#include "test_npu_api_atvoss.moc"
