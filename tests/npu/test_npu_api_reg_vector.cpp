// The register-level vector API (AscendC::Reg / MicroAPI: `__simd_vf__` functions, asc_vf_call,
// __VEC_SCOPE__) against plain C++: masks and tails, arithmetic, reductions, compare/select,
// merging, and its bad input (misaligned address, a missing MTE2->V wait), and its PIPE_V cost.
#include "NpuHarness.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace rv {
#include "kernels/api/reg_vector_kernels.cpp"
}

namespace {
bool closeTo(float got, double want, double rel = 1e-5) {
    return std::fabs(double(got) - want) <= rel * (1.0 + std::fabs(want));
}
} // namespace

class TestNpuApiRegVector : public QObject {
    Q_OBJECT
private slots:
    void vfFunctionComputesUnderUpdateMaskAndLeavesTheTail() {
        NpuHarness h;
        float* in = h.gmRandom<float>(rv::kRegN, 0.5f, 3.0f, 11);
        float* out = h.gm<float>(rv::kRegN);
        const uint32_t count = 150;  // two full registers of 64 floats and a tail of 22
        ICPU_RUN_KF(rv::reg_exp_affine_kernel, 1, (GM_ADDR)in, (GM_ADDR)out, count);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (uint32_t i = 0; i < rv::kRegN; ++i) {
            const double x = in[i];
            const double want = i < count ? std::max(std::exp(x) * 0.5 + 1.0, x + x) / x : x;
            QVERIFY2(closeTo(out[i], want), (std::to_string(i) + ": " + std::to_string(out[i])).c_str());
        }
    }
    void reductionsDuplicateAndFirstElementStores() {
        NpuHarness h;
        float* in = h.gmRandom<float>(rv::kRegN, -4.0f, 4.0f, 12);
        float* out = h.gm<float>(rv::kRegN);
        ICPU_RUN_KF(rv::reg_softmax_row_kernel, 1, (GM_ADDR)in, (GM_ADDR)out);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        const double mx = *std::max_element(in, in + 64);
        double sum = 0;
        for (int i = 0; i < 64; ++i) sum += std::exp(double(in[i]) - mx);
        QVERIFY2(closeTo(out[65], mx), std::to_string(out[65]).c_str());
        QVERIFY2(closeTo(out[64], sum), std::to_string(out[64]).c_str());
        for (int i = 0; i < 64; ++i) QVERIFY2(closeTo(out[i], std::exp(double(in[i]) - mx) / sum), std::to_string(i).c_str());
        for (uint32_t i = 66; i < rv::kRegN; ++i) QCOMPARE(out[i], in[i]);  // past the stores: untouched
    }
    void compareSelectAndMergingInVecScope() {
        NpuHarness h;
        float* in = h.gmRandom<float>(rv::kRegN, -2.0f, 2.0f, 13);
        float* out = h.gm<float>(rv::kRegN);
        ICPU_RUN_KF(rv::reg_select_merge_kernel, 1, (GM_ADDR)in, (GM_ADDR)out);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (int i = 0; i < 64; ++i) {
            const float x = in[i], y = in[64 + i];
            float r = x < y ? x : y * 10.0f + 3.0f;
            if (i < 32) r = std::min(r, 0.0f);
            QVERIFY2(out[128 + i] == r, (std::to_string(i) + ": " + std::to_string(out[128 + i])).c_str());
            QCOMPARE(out[i], x);  // inputs untouched
        }
    }
    void indexBlockAndMaskLoadOperations() {
        NpuHarness h;
        float* in = h.gmRandom<float>(rv::kRegN, -8.0f, 8.0f, 17);
        for (int i = 384; i < 448; ++i) in[i] = (i % 2 ? 1.0f : -1.0f) * (0.5f + float(i % 7));  // divisors, none 0
        float* out = h.gm<float>(rv::kRegN);
        ICPU_RUN_KF(rv::reg_index_ops_kernel, 1, (GM_ADDR)in, (GM_ADDR)out);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (int b = 0; b < 8; ++b) {
            double sum = 0;
            for (int j = 0; j < 8; ++j) sum += in[b * 8 + j];
            QVERIFY2(closeTo(out[64 + b], sum), std::to_string(b).c_str());
        }
        for (int i = 0; i < 32; ++i) QVERIFY2(closeTo(out[72 + i], double(in[2 * i]) + in[2 * i + 1]), std::to_string(i).c_str());
        uint8_t maskBytes[32];
        std::memcpy(maskBytes, in + 104, 32);
        for (int i = 0; i < 64; ++i) {
            QCOMPARE(out[128 + i], in[63 - i]);
            QCOMPARE(out[192 + i], std::floor(in[i]));
            const bool on = (maskBytes[(i * 4) / 8] >> ((i * 4) % 8)) & 1u;
            QCOMPARE(out[256 + i], on ? in[i] : 0.0f);
            QCOMPARE(out[320 + i], in[i] / in[384 + i]);
        }
    }
    void castsThroughLayoutsAndPackedStores() {
        NpuHarness h;
        float* in = h.gmRandom<float>(rv::kRegN, -8.0f, 8.0f, 18);
        float* out = h.gm<float>(rv::kRegN);
        ICPU_RUN_KF(rv::reg_cast_kernel, 1, (GM_ADDR)in, (GM_ADDR)out);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        const auto* halves = reinterpret_cast<const _Float16*>(out + 128);
        const auto* floors = reinterpret_cast<const int32_t*>(out + 224);
        const auto* sat = reinterpret_cast<const int16_t*>(out + 288);
        const auto* wrapped = reinterpret_cast<const int16_t*>(out + 320);
        for (int i = 0; i < 64; ++i) {
            const float x = in[i];
            QCOMPARE(float(halves[i]), float(_Float16(x)));
            QCOMPARE(out[160 + i], float(_Float16(x)));
            QCOMPARE(floors[i], int32_t(std::floor(x)));
            const int32_t big = int32_t(std::floor(x * 10000.0f));
            QCOMPARE(int(sat[i]), int(std::clamp(big, -32768, 32767)));
            QCOMPARE(int(wrapped[i]), int(int16_t(uint16_t(uint32_t(big) & 0xffffu))));
            QCOMPARE(out[352 + i], in[64 + i]);
        }
    }
    void unalignedMovesAndInterleave() {
        NpuHarness h;
        float* in = h.gmRandom<float>(rv::kRegN, -8.0f, 8.0f, 19);
        float* out = h.gm<float>(rv::kRegN);
        ICPU_RUN_KF(rv::reg_unaligned_relayout_kernel, 1, (GM_ADDR)in, (GM_ADDR)out);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (int i = 0; i < 100; ++i) QCOMPARE(out[257 + i], in[3 + i]);
        QCOMPARE(out[256], in[256]);  // around the unaligned range: untouched
        QCOMPARE(out[357], in[357]);
        for (int i = 0; i < 32; ++i) {
            QCOMPARE(out[384 + 2 * i], in[i]);
            QCOMPARE(out[384 + 2 * i + 1], in[64 + i]);
            QCOMPARE(out[448 + 2 * i], in[32 + i]);
            QCOMPARE(out[448 + 2 * i + 1], in[96 + i]);
        }
        for (int i = 0; i < 128; ++i) QCOMPARE(out[128 + i], in[i]);  // DeInterleave undoes Interleave
    }
    void bitwiseShiftsFusedMultiplyAddAndMaskAlgebra() {
        NpuHarness h;
        float* in = h.gmRandom<float>(rv::kRegN, -4.0f, 4.0f, 20);
        float* out = h.gm<float>(rv::kRegN);
        ICPU_RUN_KF(rv::reg_bitwise_kernel, 1, (GM_ADDR)in, (GM_ADDR)out);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        const auto* o = reinterpret_cast<const int32_t*>(out);
        for (int i = 0; i < 64; ++i) {
            const int32_t a = -20 + i, b = 0x55;
            QCOMPARE(o[i], a & b);
            QCOMPARE(o[64 + i], a | b);
            QCOMPARE(out[128 + i], i >= 16 && i < 32 ? 1.0f : 0.0f);
            QCOMPARE(o[192 + i], ~(a ^ b));
            QCOMPARE(o[256 + i], int32_t(uint32_t(a) << 3));
            QCOMPARE(o[320 + i], a >> 2);
            QVERIFY2(closeTo(out[384 + i], double(in[i]) * in[64 + i] + 1.5), std::to_string(i).c_str());
            QCOMPARE(out[448 + i], i < 32 ? in[i] : 9.0f);
        }
    }
    void gatherAndScatterThroughAnIndexRegister() {
        NpuHarness h;
        float* in = h.gmRandom<float>(rv::kRegN, -4.0f, 4.0f, 21);
        float* out = h.gm<float>(rv::kRegN);
        ICPU_RUN_KF(rv::reg_gather_scatter_kernel, 1, (GM_ADDR)in, (GM_ADDR)out);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (int i = 0; i < 64; ++i) {
            QCOMPARE(out[128 + i], in[63 - i]);
            const int from = 63 - i;  // the lane scattered to position i, if it was active
            QCOMPARE(out[192 + i], from < 40 ? in[from] : in[192 + i]);
        }
    }
    void misalignedLoadAndGatherPastUbAreReported() {
        NpuHarness h;
        float* in = h.gmRandom<float>(rv::kRegN, -1.0f, 1.0f, 14);
        float* out = h.gm<float>(rv::kRegN);
        ICPU_RUN_KF(rv::reg_misaligned_kernel, 1, (GM_ADDR)in, (GM_ADDR)out);
        QVERIFY2(h.find("misaligned_address"), h.describe().c_str());
        NpuHarness h2;
        float* in2 = h2.gmRandom<float>(rv::kRegN, -1.0f, 1.0f, 14);
        float* out2 = h2.gm<float>(rv::kRegN);
        ICPU_RUN_KF(rv::reg_gather_out_of_ub_kernel, 1, (GM_ADDR)in2, (GM_ADDR)out2);
        QVERIFY2(h2.find("capacity_exceeded") && h2.last().aborted, h2.describe().c_str());
    }
    void registerLoadBeforeTheCopyLandsIsARace() {
        NpuHarness h;
        float* in = h.gmRandom<float>(rv::kRegN, -1.0f, 1.0f, 15);
        float* out = h.gm<float>(rv::kRegN);
        ICPU_RUN_KF(rv::reg_unsynced_kernel, 1, (GM_ADDR)in, (GM_ADDR)out);
        QVERIFY2(h.find("race_raw"), h.describe().c_str());
    }
    void everyRegisterInstructionCostsVectorTime() {
        auto vectorBusy = [](uint32_t steps, float* result) {
            NpuHarness h;
            float* in = h.gmRandom<float>(rv::kRegN, -1.0f, 1.0f, 16);
            float* out = h.gm<float>(rv::kRegN);
            ICPU_RUN_KF(rv::reg_chain_kernel, 1, (GM_ADDR)in, (GM_ADDR)out, steps);
            *result = out[5] - in[5];
            const auto& p = h.last().cores.at(0).pipes;
            return std::make_pair(p.busy[size_t(sage::npu::PipeId::V)], p.instructions[size_t(sage::npu::PipeId::V)]);
        };
        float d4 = 0, d12 = 0;
        const auto [busy4, n4] = vectorBusy(4, &d4);
        const auto [busy12, n12] = vectorBusy(12, &d12);
        QVERIFY(closeTo(d4, 4.0, 1e-5) && closeTo(d12, 12.0, 1e-5));
        QCOMPARE(n12 - n4, uint64_t(8));  // one PIPE_V instruction per Adds
        QVERIFY2(busy12 > busy4, (std::to_string(busy4) + " vs " + std::to_string(busy12)).c_str());
    }
};

QTEST_MAIN(TestNpuApiRegVector)
#include "test_npu_api_reg_vector.moc"
