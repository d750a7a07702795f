// The mask + repeat forms of Compare, CompareScalar, Select and Cast, and the raw-address
// spellings real op kernels use (vcadd, get_max_min_cnt, TransDataTo5HDImpl, Trap) (issue 13,
// part 3) against plain C++, with their bad inputs.
#include "NpuHarness.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace mf {
#include "kernels/api/mask_form_kernels.cpp"
}

namespace {
bool bit(const uint8_t* bits, int i) { return (bits[i / 8] >> (i % 8)) & 1u; }

// Folds `chunks` chunks of 64 floats into the first with one Max whose repeats read the
// destination the earlier repeats wrote (dst and src1 repeat stride 0, src0 one repeat on).
extern "C" __global__ __aicore__ void fold_max_kernel(GM_ADDR in, GM_ADDR out, uint32_t chunks) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, chunks * 64 * sizeof(float));
    AscendC::GlobalTensor<float> inGm, outGm;
    inGm.SetGlobalBuffer((__gm__ float*)in, chunks * 64);
    outGm.SetGlobalBuffer((__gm__ float*)out, 64);
    AscendC::LocalTensor<float> x = buf.Get<float>();
    AscendC::DataCopy(x, inGm, chunks * 64);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Max(x, x[64], x, 64, uint8_t(chunks - 1), {1, 1, 1, 0, 8, 0});
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(outGm, x, 64);
}

// A row maximum written to dst[offset]: ReduceMax asks sizeof(T) alignment of a value alone,
// 2 * sizeof(T) of a value with its index.
extern "C" __global__ __aicore__ void reduce_max_at_kernel(GM_ADDR in, GM_ADDR out, uint32_t offset, bool index) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> src, dst, tmp;
    pipe.InitBuffer(src, 256 * sizeof(float));
    pipe.InitBuffer(dst, 64 * sizeof(float));
    pipe.InitBuffer(tmp, 64 * sizeof(float));
    AscendC::GlobalTensor<float> inGm, outGm;
    inGm.SetGlobalBuffer((__gm__ float*)in, 256);
    outGm.SetGlobalBuffer((__gm__ float*)out, 64);
    AscendC::LocalTensor<float> s = src.Get<float>(), d = dst.Get<float>(), t = tmp.Get<float>();
    AscendC::DataCopy(s, inGm, 256);
    AscendC::Duplicate(d, 0.0f, 64);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::ReduceMax(d[offset], s, t, 256, index);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(outGm, d, 64);
}
} // namespace

class TestNpuApiMaskForms : public QObject {
    Q_OBJECT
private slots:
    void repeatsOfOneInstructionRunInOrder() {
        NpuHarness h;
        const uint32_t chunks = 5;
        float* in = h.gmRandom<float>(chunks * 64, -10, 10, 7);
        float* out = h.gm<float>(64);
        ICPU_RUN_KF(fold_max_kernel, 1, (GM_ADDR)in, (GM_ADDR)out, chunks);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (int j = 0; j < 64; ++j) {
            float m = in[j];
            for (uint32_t c = 1; c < chunks; ++c) m = std::max(m, in[c * 64 + j]);
            QCOMPARE(out[j], m);  // every chunk, not only the first and the last
        }
    }
    void reduceMaxDestinationNeedsItsOwnAlignment() {
        NpuHarness h;
        float* in = h.gmRandom<float>(256, -10, 10, 8);
        float* out = h.gm<float>(64);
        ICPU_RUN_KF(reduce_max_at_kernel, 1, (GM_ADDR)in, (GM_ADDR)out, 1u, false);  // a value at 4 bytes
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        QCOMPARE(out[1], *std::max_element(in, in + 256));
        ICPU_RUN_KF(reduce_max_at_kernel, 1, (GM_ADDR)in, (GM_ADDR)out, 2u, true);  // value + index at 8
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        ICPU_RUN_KF(reduce_max_at_kernel, 1, (GM_ADDR)in, (GM_ADDR)out, 1u, true);  // value + index at 4
        QVERIFY(h.find("misaligned_address"));
    }
    void compareRepeatFormWritesOneBitPerLane() {
        NpuHarness h;
        float* in = h.gmRandom<float>(256, -5, 5, 1);
        uint8_t* out = h.gm<uint8_t>(32);
        std::memset(out, 0xAA, 32);
        ICPU_RUN_KF(mf::compare_repeat_kernel, 1, (GM_ADDR)in, (GM_ADDR)out);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (int r = 0; r < 2; ++r)
            for (int j = 0; j < 64; ++j) {
                const int lane = r * 64 + j;
                const bool expect = j < 32 ? in[lane] < in[128 + lane] : ((0xAA >> (lane % 8)) & 1);  // untouched
                QVERIFY2(bit(out, lane) == expect, std::to_string(lane).c_str());
            }
    }
    void compareScalarRepeatFormContinuousMask() {
        NpuHarness h;
        float* in = h.gmRandom<float>(128, -1, 2, 2);
        uint8_t* out = h.gm<uint8_t>(32);
        ICPU_RUN_KF(mf::compare_scalar_repeat_kernel, 1, (GM_ADDR)in, (GM_ADDR)out);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (int j = 0; j < 64; ++j) QCOMPARE(bit(out, j), j < 40 && in[j] >= 0.5f);
    }
    void comparisonOperatorIssuesCompare() {
        NpuHarness h;
        float* in = h.gmRandom<float>(128, -5, 5, 8);
        uint8_t* out = h.gm<uint8_t>(32);
        ICPU_RUN_KF(mf::compare_operator_kernel, 1, (GM_ADDR)in, (GM_ADDR)out);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (int i = 0; i < 64; ++i) QCOMPARE(bit(out, i), in[i] >= in[64 + i]);
    }
    void selectRepeatFormBothModes() {
        NpuHarness h;
        float* in = h.gmRandom<float>(256, -5, 5, 3);
        float* out = h.gm<float>(264);
        ICPU_RUN_KF(mf::select_repeat_kernel, 1, (GM_ADDR)in, (GM_ADDR)out);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (int i = 0; i < 128; ++i) {
            const bool lt = in[i] < in[128 + i];
            QCOMPARE(out[i], lt ? in[i] : in[128 + i]);
            QCOMPARE(out[128 + i], lt ? in[i] : -1.0f);
        }
    }
    void castRepeatFormNarrowsWithStrides() {
        NpuHarness h;
        float* in = h.gmRandom<float>(256, -5, 5, 4);
        half* out = h.gm<half>(128);
        ICPU_RUN_KF(mf::cast_repeat_kernel, 1, (GM_ADDR)in, (GM_ADDR)out);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (int i = 0; i < 128; ++i) QCOMPARE(float(out[i]), float(half(in[i])));
    }
    void repeatFormsRejectBadInput() {
        {
            NpuHarness h;
            float* in = h.gm<float>(128);
            uint8_t* out = h.gm<uint8_t>(32);
            ICPU_RUN_KF(mf::compare_too_many_repeats_kernel, 1, (GM_ADDR)in, (GM_ADDR)out);
            QVERIFY2(h.find("repeat_exceeds_255"), h.describe().c_str());
        }
        {
            NpuHarness h;
            float* in = h.gm<float>(256);
            uint8_t* out = h.gm<uint8_t>(1056);
            ICPU_RUN_KF(mf::select_misaligned_kernel, 1, (GM_ADDR)in, (GM_ADDR)out);
            QVERIFY2(h.find("misaligned_address"), h.describe().c_str());
        }
    }
    void vcaddAndMaxMinRegisterOnRawAddresses() {
        NpuHarness h;
        float* in = h.gmRandom<float>(256, -5, 5, 5);
        in[37] = 20.0f;
        float* out = h.gm<float>(16);
        ICPU_RUN_KF(mf::raw_address_reduce_kernel, 1, (GM_ADDR)in, (GM_ADDR)out);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (int r = 0; r < 2; ++r) {
            double s = 0;
            for (int j = 0; j < 16; ++j) s += in[r * 64 + j];
            QVERIFY2(std::fabs(out[r] - s) <= 1e-5 * (1 + std::fabs(s)), std::to_string(r).c_str());
        }
        QCOMPARE(out[2], 20.0f);
        uint32_t index;
        std::memcpy(&index, &out[3], 4);
        QCOMPARE(index, 37u);
    }
    void transDataImplTransposesRawAddressLists() {
        NpuHarness h;
        half* in = h.gm<half>(256);
        for (int i = 0; i < 256; ++i) in[i] = half(float(i % 97));
        half* out = h.gm<half>(256);
        ICPU_RUN_KF(mf::transdata_impl_kernel, 1, (GM_ADDR)in, (GM_ADDR)out);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        for (int r = 0; r < 16; ++r)
            for (int c = 0; c < 16; ++c) QCOMPARE(float(out[c * 16 + r]), float(in[r * 16 + c]));
    }
    void gmElementsStackBufferAssertSpellingAndSetMaskFalse() {
        NpuHarness h;
        float* in = h.gmRandom<float>(64, -5, 5, 6);
        float* out = h.gm<float>(72);
        ICPU_RUN_KF(mf::misc_spellings_kernel, 1, (GM_ADDR)in, (GM_ADDR)out, 64u);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        QCOMPARE(out[0], in[1]);
        QCOMPARE(out[1], 7.0f);
        QCOMPARE(out[2], 1.0f);
        QCOMPARE(out[3], float(sage::npu::DeviceProfile{}.ubBytes - 512));  // after two 256-byte buffers (TPipe has the whole UB)
        QCOMPARE(out[4], 64.0f);
        for (int i = 0; i < 64; ++i) QCOMPARE(out[8 + i], in[i] + 1.0f);
    }
    void assertAfterAnExpressionStillChecks() {
        NpuHarness h;
        ICPU_RUN_KF(mf::misc_spellings_kernel, 1, (GM_ADDR)h.gm<float>(64), (GM_ADDR)h.gm<float>(72), 0u);
        QVERIFY2(!h.last().diagnostics.empty(), "a failed ASSERT must stop the kernel");
        QVERIFY2(h.describe().find("n must not be zero") != std::string::npos ||
                     h.describe().find("n != 0") != std::string::npos,
                 h.describe().c_str());
    }
    void implSpellingsOnRawAddresses() {
        NpuHarness h;
        float* in = h.gmRandom<float>(8, -5, 5, 7);
        float* out = h.gm<float>(24);
        ICPU_RUN_KF(mf::impl_spellings_kernel, 1, (GM_ADDR)in, (GM_ADDR)out);
        QVERIFY2(h.find("gm_out_of_bounds") == nullptr, h.describe().c_str());
        for (int i = 0; i < 5; ++i) QCOMPARE(out[i], in[i]);
        for (int i = 8; i < 16; ++i) QCOMPARE(out[i], 2.5f);
        for (int i = 0; i < 5; ++i) QCOMPARE(out[16 + i], in[i]);
    }
    void scalarCastRoundsAsDocumented() {
        NpuHarness h;
        int32_t* out = h.gm<int32_t>(4);
        ICPU_RUN_KF(mf::scalar_cast_kernel, 1, (GM_ADDR)out);
        QVERIFY2(h.last().diagnostics.empty(), h.describe().c_str());
        QCOMPARE(out[0], 3);
        QCOMPARE(out[1], -3);
        QCOMPARE(out[2], -3);
        QCOMPARE(out[3], 0x3C01);  // 1 + 2^-12 lies between 0x3C00 and 0x3C01: round to odd takes 0x3C01
    }
    void trapStopsTheKernel() {
        NpuHarness h;
        ICPU_RUN_KF(mf::trap_kernel, 1, (GM_ADDR)h.gm<float>(8), (GM_ADDR)h.gm<float>(8));
        QVERIFY2(!h.last().diagnostics.empty(), "Trap() must stop the kernel with a diagnostic");
        QVERIFY2(h.last().diagnostics.front().message.find("Trap") != std::string::npos, h.describe().c_str());
    }
};

QTEST_MAIN(TestNpuApiMaskForms)
#include "test_npu_api_mask_forms.moc"
