// Kernels for test_npu_api_reg_vector: the register-level vector API (AscendC::Reg) in
// `__simd_vf__` functions called with asc_vf_call, and in a __VEC_SCOPE__ block. Written for the test.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t kRegN = 512;  // elements of UB each kernel stages (floats)

// Stages n floats of `in` in UB, runs `body(ubAddress)` between the MTE2->V and V->MTE3 flags
// (unless `synced` is false), then copies kRegN floats back to `out`.
template <typename Body> __aicore__ inline void onUb(GM_ADDR in, GM_ADDR out, bool synced, Body body) {
    GlobalTensor<float> ig, og;
    ig.SetGlobalBuffer((__gm__ float*)in, kRegN);
    og.SetGlobalBuffer((__gm__ float*)out, kRegN);
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<float> x = ub.Alloc<float, kRegN>();
    DataCopy(x, ig, kRegN);
    if (synced) {
        SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    }
    body(reinterpret_cast<__ubuf__ float*>(x.GetPhyAddr()));
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(og, x, kRegN);
    PipeBarrier<PIPE_ALL>();
}

// y = max(exp(x) * 0.5 + 1, x + x) / x over the first `count` elements, in place; the lanes past
// `count` stay as they were (UpdateMask leaves them inactive, StoreAlign does not write them).
__simd_vf__ inline void ExpAffineVF(__ubuf__ float* addr, uint32_t count) {
    constexpr uint32_t lanes = GetVecLen() / sizeof(float);
    const uint32_t repeats = (count + lanes - 1) / lanes;
    Reg::RegTensor<float> x, e, t;
    Reg::MaskReg mask;
    __ubuf__ float* src = addr;
    for (uint32_t i = 0; i < repeats; ++i) {
        mask = Reg::UpdateMask<float>(count);
        Reg::LoadAlign<float, Reg::PostLiteral::POST_MODE_UPDATE>(x, src, lanes);
        Reg::Exp(e, x, mask);
        Reg::Muls(e, e, 0.5f, mask);
        Reg::Adds(e, e, 1.0f, mask);
        Reg::Add(t, x, x, mask);
        Reg::Max(e, e, t, mask);
        Reg::Div(e, e, x, mask);
        Reg::StoreAlign(addr + i * lanes, e, mask);
    }
}

extern "C" __global__ __aicore__ void reg_exp_affine_kernel(GM_ADDR in, GM_ADDR out, uint32_t count) {
    onUb(in, out, true, [&](__ubuf__ float* ub) { asc_vf_call<ExpAffineVF>(ub, count); });
}

// Row softmax of the first 64 floats (one register), in place; the row sum goes to element 64
// (a first-element store) and the row max to element 65.
__simd_vf__ inline void SoftmaxRowVF(__ubuf__ float* addr) {
    Reg::MaskReg all = Reg::CreateMask<float, Reg::MaskPattern::ALL>();
    Reg::MaskReg one = Reg::CreateMask<float, Reg::MaskPattern::VL1>();
    Reg::RegTensor<float> x, m, s;
    Reg::LoadAlign(x, addr);
    Reg::ReduceMax(m, x, all);
    Reg::StoreAlign<float, Reg::StoreDist::DIST_FIRST_ELEMENT_B32>(addr + 65, m, one);
    Reg::Duplicate(m, m, all);
    Reg::Sub(x, x, m, all);
    Reg::Exp(x, x, all);
    Reg::ReduceSum(s, x, all);
    Reg::StoreAlign<float, Reg::StoreDist::DIST_FIRST_ELEMENT_B32>(addr + 64, s, one);
    Reg::LocalMemBar<Reg::MemType::VEC_STORE, Reg::MemType::VEC_LOAD>();
    Reg::Duplicate(s, s, all);
    Reg::Div(x, x, s, all);
    Reg::StoreAlign(addr, x, all);
}

extern "C" __global__ __aicore__ void reg_softmax_row_kernel(GM_ADDR in, GM_ADDR out) {
    onUb(in, out, true, [&](__ubuf__ float* ub) { asc_vf_call<SoftmaxRowVF>(ub); });
}

// Elements 0..63: where x < y (y = elements 64..127) keep x, else 10 * y + 3, selected with a
// compare mask; MERGING Mins on the H pattern: the first 32 lanes become min(r, 0), the others
// keep r. Written inline in a __VEC_SCOPE__ block through the MicroAPI spelling.
extern "C" __global__ __aicore__ void reg_select_merge_kernel(GM_ADDR in, GM_ADDR out) {
    onUb(in, out, true, [&](__ubuf__ float* ub) {
        __VEC_SCOPE__ {
            using namespace AscendC::MicroAPI;
            MaskReg all = CreateMask<float>();
            MaskReg half = CreateMask<float, MaskPattern::H>();
            MaskReg lt;
            RegTensor<float> x, y, r;
            LoadAlign(x, ub);
            LoadAlign(y, ub + 64);
            Compare<float, CMPMODE::LT>(lt, x, y, all);
            Muls(r, y, 10.0f, all);
            Adds(r, r, 3.0f, all);
            Select(r, x, r, lt);
            Mins<float, MaskMergeMode::MERGING>(r, r, 0.0f, half);
            StoreAlign(ub + 128, r, all);
        }
    });
}

// Bad input: a register load from an address 4 bytes past an aligned one.
extern "C" __global__ __aicore__ void reg_misaligned_kernel(GM_ADDR in, GM_ADDR out) {
    onUb(in, out, true, [&](__ubuf__ float* ub) {
        Reg::RegTensor<float> x;
        Reg::LoadAlign(x, ub + 1);
        Reg::StoreAlign(ub + 64, x, Reg::CreateMask<float>());
    });
}

// Bad input: the register code reads UB without waiting for the copy that fills it.
extern "C" __global__ __aicore__ void reg_unsynced_kernel(GM_ADDR in, GM_ADDR out) {
    onUb(in, out, false, [&](__ubuf__ float* ub) {
        Reg::RegTensor<float> x;
        Reg::LoadAlign(x, ub);
        Reg::Adds(x, x, 1.0f, Reg::CreateMask<float>());
        Reg::StoreAlign(ub, x, Reg::CreateMask<float>());
    });
}

// Adds `steps` times over one register: the cost grows with the instruction count.
extern "C" __global__ __aicore__ void reg_chain_kernel(GM_ADDR in, GM_ADDR out, uint32_t steps) {
    onUb(in, out, true, [&](__ubuf__ float* ub) {
        Reg::MaskReg all = Reg::CreateMask<float>();
        Reg::RegTensor<float> x;
        Reg::LoadAlign(x, ub);
        for (uint32_t i = 0; i < steps; ++i) Reg::Adds(x, x, 1.0f, all);
        Reg::StoreAlign(ub, x, all);
    });
}

// Index and block operations on x = elements 0..63, results after the inputs they read:
// 64..71 the sum of each 32-byte block of x, 72..103 the sums of x's adjacent pairs,
// 128..191 x reversed (Arange + Gather), 192..255 floor(x), 256..319 x where the mask register
// loaded from the bytes of elements 104..111 has the lane's bit, else 0, 320..383 x / y with
// y = elements 384..447 (Div with a DivSpecificMode).
constexpr Reg::DivSpecificMode kPreciseDiv = {Reg::MaskMergeMode::ZEROING, false, DivAlgo::PRECISION_0ULP_FTZ_FALSE};
__simd_vf__ inline void IndexOpsVF(__ubuf__ float* ub) {
    Reg::MaskReg all = Reg::CreateMask<float, Reg::MaskPattern::ALL, Reg::RegTraitNumOne>();
    Reg::MaskReg eight = Reg::CreateMask<float, Reg::MaskPattern::VL8>();
    Reg::MaskReg halfLanes = Reg::CreateMask<float, Reg::MaskPattern::H>();
    Reg::MaskReg loaded;
    Reg::RegTensor<float> x, y, r, zero;
    Reg::RegTensor<int32_t> index;
    Reg::LoadAlign(x, ub);
    Reg::LoadAlign(y, ub + 384);
    Reg::ReduceDataBlock<Reg::ReduceType::SUM>(r, x, all);
    Reg::StoreAlign(ub + 64, r, eight);
    Reg::PairReduceElem<Reg::PairReduce::SUM>(r, x, all);
    Reg::StoreAlign(ub + 72, r, halfLanes);
    Reg::Arange(index, 0);
    Reg::Muls(index, index, -1, all);
    Reg::Adds(index, index, 63, all);
    Reg::Gather<float, int32_t>(r, x, index);
    Reg::StoreAlign(ub + 128, r, all);
    Reg::Truncate<float, RoundMode::CAST_FLOOR>(r, x, all);
    Reg::StoreAlign(ub + 192, r, all);
    __ubuf__ uint8_t* maskBytes = reinterpret_cast<__ubuf__ uint8_t*>(ub + 104);
    Reg::LoadAlign<uint8_t, Reg::PostLiteral::POST_MODE_UPDATE>(loaded, maskBytes, 32);
    Reg::Duplicate(zero, 0.0f, all);
    Reg::Select(r, x, zero, loaded);
    Reg::StoreAlign(ub + 256, r, all);
    Reg::Div<float, &kPreciseDiv>(r, x, y, all);
    Reg::StoreAlign(ub + 320, r, all);
}

extern "C" __global__ __aicore__ void reg_index_ops_kernel(GM_ADDR in, GM_ADDR out) {
    onUb(in, out, true, [&](__ubuf__ float* ub) { asc_vf_call<IndexOpsVF>(ub); });
}

// Conversions between widths through the register layouts, with the pack/unpack distributions
// and the address-register and DataCopy spellings. x = elements 0..63.
//   128..159  the 64 halves of x (Cast ZERO + PACK_B32 store), read back by 160..223 as floats
//             (UNPACK_B16 load + Cast ZERO);
//   224..287  floor(x) as int32;  288..319  int16(10000 * x) saturated;  320..351 the same wrapped;
//   352..415  elements 64..127 copied through an address register with DataCopy.
// UNKNOWN (no rounding mode given, as CANN's ops write a trait's default): the natural one, to
// nearest even.
constexpr Reg::CastTrait kToHalf = {Reg::RegLayout::ZERO, Reg::SatMode::UNKNOWN, Reg::MaskMergeMode::ZEROING,
                                    RoundMode::UNKNOWN};
constexpr Reg::CastTrait kFromHalf = {Reg::RegLayout::ZERO, Reg::SatMode::UNKNOWN, Reg::MaskMergeMode::ZEROING,
                                      RoundMode::CAST_NONE};
constexpr Reg::CastTrait kFloor = {Reg::RegLayout::UNKNOWN, Reg::SatMode::UNKNOWN, Reg::MaskMergeMode::ZEROING,
                                   RoundMode::CAST_FLOOR};
constexpr Reg::CastTrait kSat16 = {Reg::RegLayout::ZERO, Reg::SatMode::SAT, Reg::MaskMergeMode::ZEROING,
                                   RoundMode::CAST_NONE};
constexpr Reg::CastTrait kWrap16 = {Reg::RegLayout::ZERO, Reg::SatMode::NO_SAT, Reg::MaskMergeMode::ZEROING,
                                    RoundMode::CAST_NONE};
__simd_vf__ inline void CastVF(__ubuf__ float* ub) {
    Reg::MaskReg all = Reg::CreateMask<float>();
    Reg::RegTensor<float> x, back;
    Reg::RegTensor<half> h, h2;
    Reg::RegTensor<int32_t> i32;
    Reg::RegTensor<int16_t> i16;
    Reg::LoadAlign(x, ub);
    Reg::Cast<half, float, kToHalf>(h, x, all);
    constexpr uint32_t halvesAt = 2 * VECTOR_REG_WIDTH / sizeof(float);  // element 128: after two registers of input
    Reg::StoreAlign<half, Reg::StoreDist::DIST_PACK_B32>(reinterpret_cast<__ubuf__ half*>(ub + halvesAt), h, all);
    Reg::LocalMemBar<Reg::MemType::VEC_STORE, Reg::MemType::VEC_LOAD>();
    Reg::LoadAlign<half, Reg::LoadDist::DIST_UNPACK_B16>(h2, reinterpret_cast<__ubuf__ half*>(ub + halvesAt));
    Reg::Cast<float, half, kFromHalf>(back, h2, all);
    Reg::StoreAlign(ub + 160, back, all);
    Reg::Cast<int32_t, float, kFloor>(i32, x, all);
    Reg::StoreAlign(reinterpret_cast<__ubuf__ int32_t*>(ub + 224), i32, all);
    Reg::Muls(x, x, 10000.0f, all);
    Reg::Cast<int32_t, float, kFloor>(i32, x, all);
    Reg::Cast<int16_t, int32_t, kSat16>(i16, i32, all);
    Reg::StoreAlign<int16_t, Reg::StoreDist::DIST_PACK_B32>(reinterpret_cast<__ubuf__ int16_t*>(ub + 288), i16, all);
    Reg::Cast<int16_t, int32_t, kWrap16>(i16, i32, all);
    Reg::StoreAlign<int16_t, Reg::StoreDist::DIST_PACK_B32>(reinterpret_cast<__ubuf__ int16_t*>(ub + 320), i16, all);
    Reg::DataCopy(x, ub, Reg::CreateAddrReg<float>(1, 64));
    Reg::DataCopy(ub + 352, x, all);
}

extern "C" __global__ __aicore__ void reg_cast_kernel(GM_ADDR in, GM_ADDR out) {
    onUb(in, out, true, [&](__ubuf__ float* ub) { asc_vf_call<CastVF>(ub); });
}

// Unaligned moves and relayout: elements 3..102 copied to 257..356 in two unaligned register
// moves of 50; Interleave of a = 0..63 and b = 64..127 to 384..511, DeInterleave of that back to
// 128..255.
__simd_vf__ inline void UnalignedRelayoutVF(__ubuf__ float* ub) {
    Reg::MaskReg all = Reg::CreateMask<float>();
    Reg::UnalignRegForLoad uload;
    Reg::UnalignRegForStore ustore;
    Reg::RegTensor<float> r, a, b, lo, hi;
    __ubuf__ float* src = ub + 3;
    __ubuf__ float* dst = ub + 257;
    Reg::LoadUnAlignPre(uload, src);
    Reg::LoadUnAlign(r, uload, src, 50);
    Reg::StoreUnAlign(dst, r, ustore, 50);
    Reg::DataCopyUnAlign(r, uload, src, 50);  // the earlier spellings of the same moves
    Reg::DataCopyUnAlign(dst, r, ustore, 50);
    Reg::DataCopyUnAlignPost(dst, ustore, 0);
    Reg::LoadAlign(a, ub);
    Reg::LoadAlign(b, ub + 64);
    Reg::Interleave(lo, hi, a, b);
    Reg::StoreAlign(ub + 384, lo, all);
    Reg::StoreAlign(ub + 448, hi, all);
    Reg::DeInterleave(a, b, lo, hi);
    Reg::StoreAlign(ub + 128, a, all);
    Reg::StoreAlign(ub + 192, b, all);
}

extern "C" __global__ __aicore__ void reg_unaligned_relayout_kernel(GM_ADDR in, GM_ADDR out) {
    onUb(in, out, true, [&](__ubuf__ float* ub) { asc_vf_call<UnalignedRelayoutVF>(ub); });
}

// Bitwise, shifts, fused multiply-add, copies and mask algebra. a = -20, -19, … (int32 lanes),
// b = 0x55 everywhere; x = elements 0..63, y = 64..127 (floats). Results (int32 in the float slots
// where integer): 0 a & b, 64 a | b, 128 1.0 where (VL16 xor H) else 0, 192 ~(a ^ b), 256 a << 3,
// 320 a >> 2, 384 x * y + 1.5, 448 x in the first 32 lanes (MERGING copy over 9.0).
__simd_vf__ inline void BitwiseVF(__ubuf__ float* ub) {
    Reg::MaskReg all = Reg::CreateMask<float>();
    Reg::MaskReg vl16 = Reg::CreateMask<float, Reg::MaskPattern::VL16>();
    Reg::MaskReg firstHalf = Reg::CreateMask<float, Reg::MaskPattern::H>();
    Reg::MaskReg between;
    Reg::RegTensor<float> x, y, acc, ones, zeros, r;
    Reg::RegTensor<int32_t> a, b, t;
    __ubuf__ int32_t* iub = reinterpret_cast<__ubuf__ int32_t*>(ub);
    Reg::LoadAlign(x, ub);
    Reg::LoadAlign(y, ub + 64);
    Reg::Arange(a, -20);
    Reg::Duplicate(b, 0x55, all);
    Reg::And(t, a, b, all);
    Reg::StoreAlign(iub, t, all);
    Reg::Or(t, a, b, all);
    Reg::StoreAlign(iub + 64, t, all);
    Reg::MaskXor(between, vl16, firstHalf, all);
    Reg::Duplicate(ones, 1.0f, all);
    Reg::Duplicate(zeros, 0.0f, all);
    Reg::Select(r, ones, zeros, between);
    Reg::StoreAlign(ub + 128, r, all);
    Reg::Xor(t, a, b, all);
    Reg::Not(t, t, all);
    Reg::StoreAlign(iub + 192, t, all);
    Reg::ShiftLefts(t, a, 3, all);
    Reg::StoreAlign(iub + 256, t, all);
    Reg::ShiftRights(t, a, 2, all);
    Reg::StoreAlign(iub + 320, t, all);
    Reg::Duplicate(acc, 1.5f, all);
    Reg::MulAddDst(acc, x, y, all);
    Reg::StoreAlign(ub + 384, acc, all);
    Reg::Duplicate(acc, 9.0f, all);
    Reg::Copy<float, Reg::MaskMergeMode::MERGING>(acc, x, firstHalf);
    Reg::StoreAlign(ub + 448, acc, all);
}

extern "C" __global__ __aicore__ void reg_bitwise_kernel(GM_ADDR in, GM_ADDR out) {
    onUb(in, out, true, [&](__ubuf__ float* ub) { asc_vf_call<BitwiseVF>(ub); });
}

// UB gather and scatter with an index register: idx = 63 - i (uint32). 128..191 = x[63 - i]
// (Gather); 192..255 with lane i written to position 63 - i for the first 40 lanes (Scatter
// under a 40-lane mask), the rest of 192..255 untouched.
__simd_vf__ inline void GatherScatterVF(__ubuf__ float* ub) {
    Reg::MaskReg all = Reg::CreateMask<float>();
    uint32_t forty = 40;
    Reg::MaskReg first40 = Reg::UpdateMask<float>(forty);
    Reg::RegTensor<uint32_t> idx, last;
    Reg::RegTensor<float> r, x;
    Reg::Arange(idx, 0);
    Reg::Duplicate(last, 63u, all);
    Reg::Sub(idx, last, idx, all);
    Reg::DataCopyGather(r, ub, idx, all);
    Reg::StoreAlign(ub + 128, r, all);
    Reg::LoadAlign(x, ub);
    Reg::Scatter(ub + 192, x, idx, first40);
}

extern "C" __global__ __aicore__ void reg_gather_scatter_kernel(GM_ADDR in, GM_ADDR out) {
    onUb(in, out, true, [&](__ubuf__ float* ub) { asc_vf_call<GatherScatterVF>(ub); });
}

// Bad input: a gather index far past the end of UB.
extern "C" __global__ __aicore__ void reg_gather_out_of_ub_kernel(GM_ADDR in, GM_ADDR out) {
    onUb(in, out, true, [&](__ubuf__ float* ub) {
        Reg::MaskReg all = Reg::CreateMask<float>();
        Reg::RegTensor<uint32_t> idx;
        Reg::RegTensor<float> r;
        Reg::Duplicate(idx, 60000u, all);  // 240,000 bytes in: past the 192 KiB UB
        Reg::Gather(r, ub, idx, all);
        Reg::StoreAlign(ub, r, all);
    });
}
