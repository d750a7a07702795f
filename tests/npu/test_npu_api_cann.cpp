// The facilities CANN's current op repositories and published agent kernels use, against plain
// C++ and with their bad input: FasterGelu/FasterGeluV2, Sort32 (float and half scores, ties,
// repeat out of range), TOTAL_VEC_LOCAL_SIZE, element compound assignment, InitSocState.
#include "NpuHarness.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <vector>

// The headers the kernels include, at global scope as in a kernel build (the kernels' own
// names go to namespace cann).
#include "ascendc/host_api/tiling/template_argument.h"
#include "kernel_operator_list_tensor_intf.h"
#include "op_kernel/math_util.h"
#include "op_kernel/platform_util.h"

namespace cann {
#include "kernels/api/cann_kernels.cpp"
}

namespace {
// The documented approximations, in double.
double fasterGeluV2(double x) {
    const double clipped = std::min(std::fabs(0.7071 * x), 1.769) - 1.769;
    const double sgn = x + 1e-12 < 0 ? -1.0 : 1.0;
    return x * (sgn * (-0.1444 * clipped * clipped + 0.5) + 0.5);
}
double fasterGelu(double x) { return x / (1.0 + std::exp(-1.702 * x)); }
bool near(float a, double b) { return std::fabs(double(a) - b) <= 1e-5 * (1 + std::fabs(b)); }
} // namespace

class TestNpuApiCann : public QObject {
    Q_OBJECT
private slots:
    void fasterGeluFormsMatchTheDocumentedFormulas() {
        NpuHarness h;
        const uint32_t n = 256;
        float* x = h.gmRandom<float>(n, -4, 4, 7);
        x[0] = 0.0f;
        x[1] = 3.0f;    // beyond the clip: x
        x[2] = -3.0f;   // beyond the clip: 0
        float* y = h.gm<float>(2 * n);
        ICPU_RUN_KF(cann::faster_gelu_v2_kernel, 1, (GM_ADDR)x, (GM_ADDR)y, n);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (uint32_t i = 0; i < n; ++i) {
            QVERIFY2(near(y[i], fasterGeluV2(x[i])), std::to_string(i).c_str());
            QVERIFY2(near(y[n + i], fasterGelu(x[i])), std::to_string(i).c_str());
        }
        QCOMPARE(y[1], 3.0f);
        QCOMPARE(y[2], -0.0f);
        // GELU(1) = 0.8413: the approximation stays within 0.01 of it.
        QVERIFY(std::fabs(fasterGeluV2(1.0) - 0.8413) < 0.01);
    }
    void sort32OrdersEachGroupLargestFirst() {
        NpuHarness h;
        float* s = h.gmRandom<float>(64, -10, 10, 11);
        s[5] = s[9] = 50.0f;  // a tie: the lower index comes first
        float* out = h.gm<float>(128);
        ICPU_RUN_KF(cann::sort32_kernel, 1, (GM_ADDR)s, (GM_ADDR)out, int32_t(2));
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (uint32_t g = 0; g < 2; ++g) {
            std::vector<uint32_t> order(32);
            std::iota(order.begin(), order.end(), g * 32);
            std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return s[a] > s[b]; });
            for (uint32_t k = 0; k < 32; ++k) {
                const float* entry = out + 2 * (g * 32 + k);
                uint32_t index;
                std::memcpy(&index, entry + 1, 4);
                QCOMPARE(index, order[k]);  // groups are sorted apart: indices stay in their group
                QCOMPARE(entry[0], s[order[k]]);
            }
        }
        uint32_t first, second;
        std::memcpy(&first, out + 1, 4);
        std::memcpy(&second, out + 3, 4);
        QCOMPARE(first, 5u);
        QCOMPARE(second, 9u);
    }
    void sort32HalfScoresKeepTheirBitsInTheLowBytes() {
        NpuHarness h;
        half* s = h.gm<half>(32);
        for (int i = 0; i < 32; ++i) s[i] = half(float((i * 7) % 32) - 16.0f);
        uint32_t* out = h.gm<uint32_t>(64);
        ICPU_RUN_KF(cann::sort32_half_kernel, 1, (GM_ADDR)s, (GM_ADDR)out);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        float prev = 1e9f;
        for (int k = 0; k < 32; ++k) {
            const uint16_t scoreBits = uint16_t(out[2 * k] & 0xffffu);
            QCOMPARE(out[2 * k] >> 16, 0u);  // the reserved 2 bytes
            const uint32_t index = out[2 * k + 1];
            QVERIFY(index >= 100 && index < 132);
            QCOMPARE(scoreBits, s[index - 100].bits);
            const half score = s[index - 100];
            QVERIFY(float(score) <= prev);
            prev = float(score);
        }
    }
    void sort32RepeatOutOfRangeIsAnError() {
        NpuHarness h;
        float* s = h.gm<float>(64);
        float* out = h.gm<float>(128);
        ICPU_RUN_KF(cann::sort32_kernel, 1, (GM_ADDR)s, (GM_ADDR)out, int32_t(256));
        const auto* d = h.find("repeat_exceeds_255");
        QVERIFY2(d, h.describe().c_str());
        QVERIFY(d->message.find("Sort32") != std::string::npos);
        // A repeat that fits the field but not the buffers is the usual out-of-bounds error.
        NpuHarness h2;
        float* s2 = h2.gm<float>(64);
        float* out2 = h2.gm<float>(128);
        ICPU_RUN_KF(cann::sort32_kernel, 1, (GM_ADDR)s2, (GM_ADDR)out2, int32_t(3));
        QVERIFY2(!h2.last().diagnostics.empty(), "Sort32 over 96 scores of a 64-score buffer must be refused");
    }
    void vecLocalSizeAndElementCompoundAssignment() {
        NpuHarness h;
        float* out = h.gm<float>(8);
        ICPU_RUN_KF(cann::vec_local_size_kernel, 1, (GM_ADDR)out);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        QCOMPARE(out[0], 188416.0f);  // 184 KiB of the 910B's 192 KiB UB
        QCOMPARE(out[1], 6.0f);       // ((10 + 5) * 2 - 6) / 4
        QCOMPARE(out[2], 9.0f);       // (1 + 2) * 3
    }
    void initSocStateClearsAtomicAccumulation() {
        NpuHarness h;
        float* out = h.gm<float>(8);
        for (int i = 0; i < 8; ++i) out[i] = 1.0f;
        ICPU_RUN_KF(cann::init_soc_state_kernel, 1, (GM_ADDR)out);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (int i = 0; i < 8; ++i) QCOMPARE(out[i], 2.0f);  // overwritten, not 1 + 2 + 2
    }
    void tensorListGivesPointersAndShapes() {
        NpuHarness h;
        const uint32_t n = 96;
        float* x0 = h.gmRandom<float>(n, -1, 1, 21);
        float* x1 = h.gmRandom<float>(n, -1, 1, 22);
        // The description: table offset, tensor 0 (1-D: n), tensor 1 (2-D: 8 x 12), two pointers.
        uint64_t* list = h.gm<uint64_t>(8);
        const uint64_t words[] = {6 * 8, 1, n, 2, 8, 12, uint64_t(uintptr_t(x0)), uint64_t(uintptr_t(x1))};
        std::memcpy(list, words, sizeof(words));
        float* out = h.gm<float>(n + 8);
        uint64_t* meta = h.gm<uint64_t>(8);
        ICPU_RUN_KF(cann::list_add_kernel, 1, (GM_ADDR)list, (GM_ADDR)out, (GM_ADDR)meta, n);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (uint32_t i = 0; i < n; ++i) QCOMPARE(out[i], x0[i] + x1[i]);
        QCOMPARE(meta[0], uint64_t(2));
        QCOMPARE(meta[1], uint64_t(8));
        QCOMPARE(meta[2], uint64_t(12));
        QCOMPARE(meta[3], uint64_t(2));
        QCOMPARE(meta[4], uint64_t(1));
        QCOMPARE(meta[5], uint64_t(2));    // CeilDiv(96, 64)
        QCOMPARE(meta[6], uint64_t(64));   // FloorAlign(96, 64)
        QCOMPARE(meta[7], uint64_t(256 + n));
    }
    void tensorListIndexPastTheEndIsAnError() {
        NpuHarness h;
        float* x = h.gm<float>(8);
        uint64_t* list = h.gm<uint64_t>(8);
        const uint64_t words[] = {5 * 8, 1, 8, 1, 8, uint64_t(uintptr_t(x)), uint64_t(uintptr_t(x))};
        std::memcpy(list, words, sizeof(words));
        ICPU_RUN_KF(cann::list_index_kernel, 1, (GM_ADDR)list, 1u);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        NpuHarness h2;
        uint64_t* list2 = h2.gm<uint64_t>(8);
        std::memcpy(list2, words, sizeof(words));
        ICPU_RUN_KF(cann::list_index_kernel, 1, (GM_ADDR)list2, 2u);
        const auto* d = h2.find("assert_failed");
        QVERIFY2(d && d->message.find("past the end of the list") != std::string::npos, h2.describe().c_str());
        // A description whose table offset is not a multiple of 8 is refused, not walked.
        NpuHarness h3;
        uint64_t* bad = h3.gm<uint64_t>(8);
        bad[0] = 13;
        ICPU_RUN_KF(cann::list_index_kernel, 1, (GM_ADDR)bad, 0u);
        QVERIFY2(h3.find("assert_failed"), h3.describe().c_str());
    }
    void stdSubsetComputesMinMaxAndPicksTypes() {
        static_assert(std::is_same_v<AscendC::Conditional<true, float, half>::type, float>);
        static_assert(std::is_same_v<AscendC::Conditional<false, float, half>::type, half>);
        NpuHarness h;
        int32_t* out = h.gm<int32_t>(4);
        ICPU_RUN_KF(cann::std_subset_kernel, 1, (GM_ADDR)out, int32_t(-3), int32_t(9));
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        QCOMPARE(out[0], -3);
        QCOMPARE(out[1], 9);
        QCOMPARE(out[2], 8);
        QCOMPARE(out[3], 1);
    }
    void ascendcAssertRunsItsStatementsOnlyWhenItFails() {
        NpuHarness h;
        int32_t* out = h.gm<int32_t>(2);
        ICPU_RUN_KF(cann::ascendc_assert_kernel, 1, (GM_ADDR)out, 4u);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        QCOMPARE(out[0], 0);
        QCOMPARE(out[1], 4);
        NpuHarness h2;
        int32_t* out2 = h2.gm<int32_t>(2);
        ICPU_RUN_KF(cann::ascendc_assert_kernel, 1, (GM_ADDR)out2, 0u);
        const auto* d = h2.find("assert_failed");
        QVERIFY2(d && d->message.find("n != 0") != std::string::npos, h2.describe().c_str());
        QCOMPARE(out2[0], 7);  // the statements ran before the failure was reported
    }
    void setPadValueFillsPaddingWhenParamsDoNot() {
        NpuHarness h;
        float* in = h.gmRandom<float>(8, 10, 20, 41);
        float* out = h.gm<float>(32);
        ICPU_RUN_KF(cann::set_pad_value_kernel, 1, (GM_ADDR)in, (GM_ADDR)out);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (int r = 0; r < 3; ++r)
            for (int j = 0; j < 5; ++j) QCOMPARE(out[r * 8 + j], in[j]);
        for (int j = 5; j < 8; ++j) {
            QCOMPARE(out[j], -1.0f);      // no pad value yet: the padding is not written
            QCOMPARE(out[8 + j], 7.0f);   // SetPadValue(7)
            QCOMPARE(out[16 + j], 2.0f);  // isPad with the params' own value
        }
        for (int j = 0; j < 8; ++j) QCOMPARE(out[24 + j], in[0]);  // broadcast through __local_mem__
    }
    void localMemAllocatorHandsOutConsecutiveTensors() {
        NpuHarness h;
        const uint32_t n = 64;
        float* x = h.gmRandom<float>(n, -1, 1, 31);
        float* y = h.gmRandom<float>(n, -1, 1, 32);
        float* z = h.gm<float>(n + 8);
        ICPU_RUN_KF(cann::static_alloc_add_kernel, 1, (GM_ADDR)x, (GM_ADDR)y, (GM_ADDR)z, n);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (uint32_t i = 0; i < n; ++i) QCOMPARE(z[i], x[i] + y[i]);
        QCOMPARE(z[n], float(3 * n * sizeof(float) + 32));  // three 256-byte tensors and a block, back to back
        // Tensors past the UB's capacity are refused where they are used.
        NpuHarness h2;
        const uint32_t big = 24576;  // 3 x 96 KiB: the third starts beyond 192 KiB
        float* bx = h2.gm<float>(big);
        float* by = h2.gm<float>(big);
        float* bz = h2.gm<float>(big + 8);
        ICPU_RUN_KF(cann::static_alloc_add_kernel, 1, (GM_ADDR)bx, (GM_ADDR)by, (GM_ADDR)bz, big);
        const auto* d = h2.find("capacity_exceeded");
        QVERIFY2(d && d->message.find("past the end of UB") != std::string::npos, h2.describe().c_str());
    }
    void registeredTilingStructIsReadByValueAndPointer() {
        NpuHarness h;
        float* out = h.gm<float>(8);
        const cann::DemoTilingData t{40, 2.5f};
        auto* tiling = h.gm<cann::DemoTilingData>(1);
        std::memcpy(tiling, &t, sizeof(t));
        ICPU_RUN_KF(cann::tiling_struct_kernel, 1, (GM_ADDR)out, (GM_ADDR)tiling);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        QCOMPARE(out[0], 40.0f);
        QCOMPARE(out[1], 2.5f);
        QCOMPARE(out[2], 0.0f);  // no tiling key was set
    }
    void loopModeWrapsCopiesInTwoStridedLoops() {
        NpuHarness h;
        float* x = h.gmRandom<float>(120, -5, 5, 51);
        float* y = h.gm<float>(60);
        float* z = h.gm<float>(16);
        ICPU_RUN_KF(cann::loop_mode_kernel, 1, (GM_ADDR)x, (GM_ADDR)y, (GM_ADDR)z, uint32_t(64));
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        // y[a][b][r][c] = x[a][b][r][c] for the first 5 of each 10-element row.
        for (int a = 0; a < 2; ++a)
            for (int b = 0; b < 3; ++b)
                for (int r = 0; r < 2; ++r)
                    for (int c = 0; c < 5; ++c)
                        QCOMPARE(y[((a * 3 + b) * 2 + r) * 5 + c], x[((a * 3 + b) * 2 + r) * 10 + c]);
        // After ResetLoopModePara: one pass, each row padded with the params' value.
        for (int r = 0; r < 2; ++r)
            for (int c = 0; c < 8; ++c) QCOMPARE(z[r * 8 + c], c < 5 ? x[r * 10 + c] : 0.0f);
    }
    void loopModeStrideOffTheUbGridIsAnError() {
        NpuHarness h;
        float* x = h.gm<float>(120);
        float* y = h.gm<float>(60);
        float* z = h.gm<float>(16);
        ICPU_RUN_KF(cann::loop_mode_kernel, 1, (GM_ADDR)x, (GM_ADDR)y, (GM_ADDR)z, uint32_t(48));
        const auto* d = h.find("datacopy_params");
        QVERIFY2(d && d->message.find("SetLoopModePara(OUT_TO_UB): loop1DstStride 48") != std::string::npos &&
                     d->message.find("multiple of 32") != std::string::npos,
                 h.describe().c_str());
    }
    void multiCopyPadsAndBroadcastsEachLoop() {
        NpuHarness h;
        float* x = h.gmRandom<float>(15, -5, 5, 61);
        float* y = h.gm<float>(96);
        ICPU_RUN_KF(cann::nd_copy_kernel, 1, (GM_ADDR)x, (GM_ADDR)y, uint32_t(8));
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (int r = 0; r < 4; ++r)
            for (int c = 0; c < 8; ++c) {
                const bool inside = r < 3 && c >= 1 && c <= 5;
                QCOMPARE(y[r * 8 + c], inside ? x[r * 5 + c - 1] : -7.0f);
                const float nearestValue = x[std::min(r, 2) * 5 + std::clamp(c - 1, 0, 4)];
                QCOMPARE(y[32 + r * 8 + c], nearestValue);
                QCOMPARE(y[64 + r * 8 + c], nearestValue);
            }
    }
    void multiCopyStrideOutOfRangeIsAnError() {
        NpuHarness h;
        float* x = h.gm<float>(15);
        float* y = h.gm<float>(96);
        ICPU_RUN_KF(cann::nd_copy_kernel, 1, (GM_ADDR)x, (GM_ADDR)y, uint32_t(1u << 20));
        const auto* d = h.find("datacopy_params");
        QVERIFY2(d && d->message.find("MultiCopyParams") != std::string::npos &&
                     d->message.find("loopDstStride[1]") != std::string::npos,
                 h.describe().c_str());
    }
    void inverseHyperbolicFunctionsMatchTheLibm() {
        NpuHarness h;
        float* x = h.gmRandom<float>(64, 1.0f, 3.9f, 71);
        float* out = h.gm<float>(192);
        ICPU_RUN_KF(cann::inverse_hyperbolic_kernel, 1, (GM_ADDR)x, (GM_ADDR)out);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (int i = 0; i < 64; ++i) {
            QVERIFY2(near(out[i], std::asinh(double(x[i]))), std::to_string(i).c_str());
            QVERIFY2(near(out[64 + i], std::acosh(double(x[i]))), std::to_string(i).c_str());
            QVERIFY2(near(out[128 + i], std::atanh(double(x[i]) / 4)), std::to_string(i).c_str());
        }
    }
    void addReluAndSubReluClampAtZero() {
        NpuHarness h;
        float* x = h.gmRandom<float>(64, -3, 3, 81);
        float* y = h.gmRandom<float>(64, -3, 3, 82);
        float* out = h.gm<float>(128);
        ICPU_RUN_KF(cann::add_relu_kernel, 1, (GM_ADDR)x, (GM_ADDR)y, (GM_ADDR)out);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (int i = 0; i < 64; ++i) {
            QCOMPARE(out[i], std::max(x[i] + y[i], 0.0f));
            QCOMPARE(out[64 + i], std::max(x[i] - y[i], 0.0f));
        }
    }
    void bufPoolsHandOutTheirOwnRegionAndShareIt() {
        NpuHarness h;
        float* x = h.gmRandom<float>(64, -3, 3, 91);
        float* out = h.gm<float>(72);
        ICPU_RUN_KF(cann::buf_pool_kernel, 1, (GM_ADDR)x, (GM_ADDR)out, uint32_t(0));
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (int i = 0; i < 64; ++i) QCOMPARE(out[i], 2.0f * x[i]);
        QCOMPARE(out[65], out[64] + 256.0f);  // the TBuf follows the queue buffer inside pool1
        QCOMPARE(out[66], out[64]);           // pool2 starts where pool1 starts
        // A buffer larger than what is left of its pool is refused, naming the pool.
        NpuHarness h2;
        float* x2 = h2.gm<float>(64);
        float* out2 = h2.gm<float>(72);
        ICPU_RUN_KF(cann::buf_pool_kernel, 1, (GM_ADDR)x2, (GM_ADDR)out2, uint32_t(1024));
        const auto* d = h2.find("capacity_exceeded");
        QVERIFY2(d && d->message.find("TBufPool has 768 of its 1024 left") != std::string::npos, h2.describe().c_str());
    }
    void reduceTypeSpellingsMatchPlainReductions() {
        NpuHarness h;
        float* x = h.gmRandom<float>(128, -4, 4, 95);
        float* out = h.gm<float>(96);
        ICPU_RUN_KF(cann::reduce_type_kernel, 1, (GM_ADDR)x, (GM_ADDR)out);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (int r = 0; r < 2; ++r) {
            const float* row = x + 64 * r;
            QVERIFY(near(out[r], std::accumulate(row, row + 64, 0.0)));
            QCOMPARE(out[8 + r], *std::max_element(row, row + 64));
            for (int b = 0; b < 8; ++b) QCOMPARE(out[16 + 8 * r + b], *std::min_element(row + 8 * b, row + 8 * b + 8));
            for (int i = 0; i < 32; ++i) QCOMPARE(out[32 + 32 * r + i], row[2 * i] + row[2 * i + 1]);
        }
    }
    void tensorPlacedByAddressHoldsItsElements() {
        NpuHarness h;
        float* x = h.gmRandom<float>(64, -3, 3, 97);
        float* out = h.gm<float>(64);
        ICPU_RUN_KF(cann::placed_tensor_kernel, 1, (GM_ADDR)x, (GM_ADDR)out, uint32_t(256));
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (int i = 0; i < 64; ++i) QCOMPARE(out[i], x[i] + 1.0f);
        NpuHarness h2;
        float* x2 = h2.gm<float>(64);
        float* out2 = h2.gm<float>(64);
        ICPU_RUN_KF(cann::placed_tensor_kernel, 1, (GM_ADDR)x2, (GM_ADDR)out2, uint32_t(260));
        QVERIFY2(h2.find("misaligned_address"), h2.describe().c_str());
    }
    void interleaveAndDeInterleavePermuteAsDocumented() {
        NpuHarness h;
        int32_t* a = h.gm<int32_t>(64);
        int32_t* b = h.gm<int32_t>(64);
        for (int i = 0; i < 64; ++i) a[i] = i + 1, b[i] = i + 65;  // the documented example, scaled to 64
        int32_t* out = h.gm<int32_t>(320);
        ICPU_RUN_KF(cann::interleave_kernel, 1, (GM_ADDR)a, (GM_ADDR)b, (GM_ADDR)out, int32_t(64));
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        std::vector<int32_t> merged, joined(a, a + 64);
        joined.insert(joined.end(), b, b + 64);
        for (int i = 0; i < 64; ++i) merged.push_back(a[i]), merged.push_back(b[i]);
        for (int i = 0; i < 128; ++i) QCOMPARE(out[i], merged[size_t(i)]);              // dst0 then dst1
        for (int i = 0; i < 64; ++i) {
            QCOMPARE(out[128 + i], joined[size_t(2 * i)]);
            QCOMPARE(out[192 + i], joined[size_t(2 * i + 1)]);
        }
        for (int i = 0; i < 32; ++i) {
            QCOMPARE(out[256 + i], a[2 * i]);
            QCOMPARE(out[288 + i], a[2 * i + 1]);
        }
        NpuHarness h2;
        int32_t* a2 = h2.gm<int32_t>(64);
        int32_t* b2 = h2.gm<int32_t>(64);
        int32_t* out2 = h2.gm<int32_t>(320);
        ICPU_RUN_KF(cann::interleave_kernel, 1, (GM_ADDR)a2, (GM_ADDR)b2, (GM_ADDR)out2, int32_t(63));
        const auto* d = h2.find("unsupported");
        QVERIFY2(d && d->message.find("Interleave: count 63 must be even") != std::string::npos, h2.describe().c_str());
    }
    void tilingTemplateKeyPacksArgumentsByWidth() {
        using cann::g_tilingDeclareParams;
        QCOMPARE(GET_TPL_TILING_KEY(0, 0, 0), uint64_t(0));
        QCOMPARE(GET_TPL_TILING_KEY(2, DEMO_TPL_FP32, 1), uint64_t(2 | (2 << 2) | (1 << 10)));
        bool threw = false;
        try {
            (void)GET_TPL_TILING_KEY(4, 1, 0);  // 4 does not fit schMode's 2 bits
        } catch (const std::invalid_argument& e) {
            threw = std::string(e.what()).find("schMode") != std::string::npos;
        }
        QVERIFY(threw);
        threw = false;
        try {
            (void)GET_TPL_TILING_KEY(1, 1);  // one value short
        } catch (const std::invalid_argument& e) {
            threw = std::string(e.what()).find("2 values for 3") != std::string::npos;
        }
        QVERIFY(threw);
    }
};

QTEST_MAIN(TestNpuApiCann)
#include "test_npu_api_cann.moc"
