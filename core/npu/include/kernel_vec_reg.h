// The register-level vector API of the Ascend 950 generation (AscendC::Reg, also spelled
// AscendC::MicroAPI): a `__simd_vf__` function called with `asc_vf_call<F>(args...)` (or a
// `__VEC_SCOPE__ { ... }` block) loads vector registers from raw UB addresses, computes on them
// under a lane mask and stores them back. A vector register holds GetVecLen() = 256 bytes; a
// mask register has one bit per byte of it, so lane i of a T-typed register is active when bit
// i * sizeof(T) is set. Loads and stores are UB accesses on PIPE_V (checked and race-tracked like
// every vector instruction); every register instruction costs one vector repeat on PIPE_V.
// Register arithmetic itself happens in the kernel's own process. This header has the registers,
// masks, loads and stores; kernel_vec_reg_math.h the arithmetic, kernel_vec_reg_layout.h the
// reductions, conversions and rearrangements. Semantics: docs/kernel-api.md "Register-level
// vector API".
#pragma once

#include "kernel_cce_compat.h"

#include "kernel_vec_cast.h"

#include <algorithm>
// No <cmath>: it declares libm names (sin, exp, ...) globally, and a kernel entry may carry one of them.
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

// Function qualifiers of register code: plain inline functions here.
#define __simd_vf__
#define __simd_callee__
// A register block inside an ordinary kernel function: just a block.
#define __VEC_SCOPE__

namespace AscendC {

// Bytes in one vector register (also spelled as the constant VECTOR_REG_WIDTH).
__aicore__ constexpr uint32_t GetVecLen() { return 256; }
constexpr uint32_t VECTOR_REG_WIDTH = GetVecLen();

enum class DivAlgo {
    INTRINSIC,
    DIFF_COMPENSATION,
    PRECISION_1ULP_FTZ_TRUE,
    PRECISION_0ULP_FTZ_TRUE,
    PRECISION_0ULP_FTZ_FALSE,
    PRECISION_1ULP_FTZ_FALSE
};

namespace Reg {

constexpr uint32_t kRegBytes = GetVecLen();

enum class MaskPattern { ALL, VL1, VL2, VL3, VL4, VL8, VL16, VL32, VL64, VL128, M3, M4, H, Q, ALLF };
// ZEROING clears the inactive lanes of the destination, MERGING keeps them.
enum class MaskMergeMode { ZEROING, MERGING };
// POST_MODE_UPDATE advances the address operand by the stride (in elements) after the access.
enum class PostLiteral { POST_MODE_NORMAL, POST_MODE_UPDATE };
enum class LoadDist {
    DIST_NORM,
    DIST_BRC_B8,
    DIST_BRC_B16,
    DIST_BRC_B32,
    DIST_UNPACK_B8,
    DIST_UNPACK_B16,
    DIST_UNPACK_B32,
    DIST_UNPACK4_B8
};
enum class StoreDist {
    DIST_NORM,
    DIST_NORM_B8,
    DIST_NORM_B16,
    DIST_NORM_B32,
    DIST_FIRST_ELEMENT_B8,
    DIST_FIRST_ELEMENT_B16,
    DIST_FIRST_ELEMENT_B32,
    DIST_PACK_B16,
    DIST_PACK_B32,
    DIST_PACK_B64,
    DIST_PACK4_B32
};
enum class MemType { VEC_STORE, VEC_LOAD, SCALAR_STORE, SCALAR_LOAD, VEC_ALL, SCALAR_ALL };
using ::AscendC::ReduceType;  // one type for both APIs (kernel_vec_reduce.h)
// How many registers a 64-bit element type spans; one for every type simulated here.
struct RegTraitNumOne {};
struct RegTraitNumTwo {};

// One predicate bit per byte of a vector register.
struct MaskReg {
    uint8_t bits[kRegBytes / 8] = {};
    __aicore__ bool byteOn(uint32_t byte) const { return (bits[byte / 8] >> (byte % 8)) & 1u; }
    __aicore__ void setByte(uint32_t byte, bool on) {
        if (on) bits[byte / 8] = uint8_t(bits[byte / 8] | (1u << (byte % 8)));
        else bits[byte / 8] = uint8_t(bits[byte / 8] & ~(1u << (byte % 8)));
    }
    template <typename T> __aicore__ bool lane(uint32_t i) const { return byteOn(i * uint32_t(sizeof(T))); }
};

template <typename T, typename Trait = RegTraitNumOne> struct RegTensor {
    static_assert(sizeof(T) <= 8, "a register element is at most 8 bytes");
    static constexpr uint32_t kLanes = kRegBytes / uint32_t(sizeof(T));
    T v[kLanes] = {};
};

namespace detail {
template <typename T> constexpr uint32_t lanesOf() { return kRegBytes / uint32_t(sizeof(T)); }

// A mask whose first `n` lanes of T are active.
template <typename T> __aicore__ MaskReg firstLanes(uint32_t n) {
    MaskReg m;
    for (uint32_t i = 0; i < n && i < lanesOf<T>(); ++i) m.setByte(i * uint32_t(sizeof(T)), true);
    return m;
}

template <typename T> __aicore__ uint32_t patternLanes(MaskPattern p) {
    const uint32_t all = lanesOf<T>();
    switch (p) {
    case MaskPattern::ALL: return all;
    case MaskPattern::VL1: return 1;
    case MaskPattern::VL2: return 2;
    case MaskPattern::VL3: return 3;
    case MaskPattern::VL4: return 4;
    case MaskPattern::VL8: return 8;
    case MaskPattern::VL16: return 16;
    case MaskPattern::VL32: return 32;
    case MaskPattern::VL64: return 64;
    case MaskPattern::VL128: return 128;
    case MaskPattern::H: return all / 2;
    case MaskPattern::Q: return all / 4;
    default: return 0;
    }
}

// The type that selects an instruction's cost (half-precision transcendental forms are cheaper).
template <typename T> constexpr ::sage::npu::DType dtypeFor() {
    return sizeof(T) == 2 ? ::sage::npu::DType::F16 : ::sage::npu::DType::F32;
}

// Element arithmetic: floating types in double rounded back to T, integers in 64 bits wrapped to T.
template <typename T> __aicore__ double toNum(T x) {
    if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>) return double(float(x));
    else return double(x);
}
template <typename T> __aicore__ T fromNum(double x) {
    if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>) return T(float(x));
    else if constexpr (std::is_floating_point_v<T>) return T(x);
    else {
        if (__builtin_isnan(x)) return T(0);
        if (x >= 9.2e18) return T(int64_t(INT64_MAX));
        if (x <= -9.2e18) return T(int64_t(INT64_MIN));
        return T(int64_t(x));
    }
}

// One register instruction: dst lanes under the mask get f(lane); the others are cleared
// (ZEROING) or kept (MERGING).
template <MaskMergeMode mode, typename E, typename F>
__aicore__ void perLane(RegTensor<E>& dst, const MaskReg& mask, F&& f) {
    for (uint32_t i = 0; i < lanesOf<E>(); ++i) {
        if (mask.lane<E>(i)) dst.v[i] = f(i);
        else if constexpr (mode == MaskMergeMode::ZEROING) dst.v[i] = E{};
    }
}

inline ::sage::npu::LocalRef regUb(const volatile void* p) { return ::AscendC::detail::ubAt(p); }

template <typename E> __aicore__ void loadRegister(RegTensor<E>& dst, const volatile void* src, const char* api,
                                                   ::sage::npu::Loc loc) {
    ::sage::npu::rt::regLoad(regUb(src), dst.v, kRegBytes, 32, api, loc);
}

template <typename E> __aicore__ void storeRegister(const volatile void* dst, const RegTensor<E>& src,
                                                   const MaskReg& mask, uint32_t lanes, const char* api,
                                                   ::sage::npu::Loc loc) {
    bool on[kRegBytes];
    for (uint32_t i = 0; i < lanes; ++i) on[i] = mask.lane<E>(i);
    ::sage::npu::rt::regStore(regUb(dst), src.v, on, uint32_t(sizeof(E)), lanes, lanes == 1 ? uint32_t(sizeof(E)) : 32u, api,
                                   loc);
}

inline void issue(const char* api, ::sage::npu::VecOp op, ::sage::npu::DType t, ::sage::npu::Loc loc) {
    ::sage::npu::rt::regIssue(api, op, t, loc);
}
} // namespace detail

// ---- masks ----------------------------------------------------------------------------------
template <typename T, MaskPattern pattern = MaskPattern::ALL, typename Trait = RegTraitNumOne>
__aicore__ inline MaskReg CreateMask(::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    detail::issue("CreateMask", ::sage::npu::VecOp::Copy, detail::dtypeFor<T>(), loc);
    MaskReg m;
    const uint32_t n = detail::lanesOf<T>();
    if (pattern == MaskPattern::M3 || pattern == MaskPattern::M4) {
        const uint32_t step = pattern == MaskPattern::M3 ? 3 : 4;
        for (uint32_t i = 0; i < n; i += step) m.setByte(i * uint32_t(sizeof(T)), true);
        return m;
    }
    return detail::firstLanes<T>(detail::patternLanes<T>(pattern));
}

// The first min(count, lanes of T) lanes; count is decreased by that many, so a loop over a
// tail calls it once per register.
template <typename T, typename Trait = RegTraitNumOne>
__aicore__ inline MaskReg UpdateMask(uint32_t& count, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    detail::issue("UpdateMask", ::sage::npu::VecOp::Copy, detail::dtypeFor<T>(), loc);
    const uint32_t n = count < detail::lanesOf<T>() ? count : detail::lanesOf<T>();
    count -= n;
    return detail::firstLanes<T>(n);
}

// ---- loads and stores (32-byte aligned UB addresses) -------------------------------------------
// Distributions: NORM moves the whole register; BRC_Bx broadcasts one element; UNPACK_Bx
// (UNPACK4_B8) reads half (a quarter) of a register's bytes and spreads each x-bit element to the
// low part of a slot twice (four times) as wide, which Cast's RegLayout::ZERO then reads;
// PACK_Bx (PACK4_B32) stores the low half (quarter) of each x-bit slot, contiguously.
// FIRST_ELEMENT_Bx stores lane 0 only.
namespace detail {
struct Dist {
    uint32_t es;       // bytes of the element moved
    uint32_t factor;   // slot width / es (1: dense)
    bool broadcast;
};
constexpr Dist distOf(LoadDist d, uint32_t es) {
    switch (d) {
    case LoadDist::DIST_BRC_B8: return {1, 1, true};
    case LoadDist::DIST_BRC_B16: return {2, 1, true};
    case LoadDist::DIST_BRC_B32: return {4, 1, true};
    case LoadDist::DIST_UNPACK_B8: return {1, 2, false};
    case LoadDist::DIST_UNPACK_B16: return {2, 2, false};
    case LoadDist::DIST_UNPACK_B32: return {4, 2, false};
    case LoadDist::DIST_UNPACK4_B8: return {1, 4, false};
    default: return {es, 1, false};
    }
}
constexpr Dist distOf(StoreDist d, uint32_t es) {
    switch (d) {
    case StoreDist::DIST_FIRST_ELEMENT_B8: return {1, 0, false};
    case StoreDist::DIST_FIRST_ELEMENT_B16: return {2, 0, false};
    case StoreDist::DIST_FIRST_ELEMENT_B32: return {4, 0, false};
    case StoreDist::DIST_PACK_B16: return {1, 2, false};
    case StoreDist::DIST_PACK_B32: return {2, 2, false};
    case StoreDist::DIST_PACK_B64: return {4, 2, false};
    case StoreDist::DIST_PACK4_B32: return {1, 4, false};
    default: return {es, 1, false};
    }
}

template <typename E> __aicore__ void loadDist(RegTensor<E>& dst, const volatile void* src, Dist d,
                                               ::sage::npu::Loc loc) {
    uint8_t bytes[kRegBytes] = {};
    if (d.broadcast) {
        ::sage::npu::rt::regLoad(regUb(src), bytes, d.es, d.es, "LoadAlign", loc);
        for (uint32_t at = d.es; at + d.es <= kRegBytes; at += d.es) std::memcpy(bytes + at, bytes, d.es);
    } else if (d.factor == 1) {
        ::sage::npu::rt::regLoad(regUb(src), bytes, kRegBytes, 32, "LoadAlign", loc);
    } else {
        uint8_t packed[kRegBytes];
        const uint32_t n = kRegBytes / (d.es * d.factor);
        ::sage::npu::rt::regLoad(regUb(src), packed, n * d.es, 32, "LoadAlign", loc);
        for (uint32_t j = 0; j < n; ++j) std::memcpy(bytes + j * d.es * d.factor, packed + j * d.es, d.es);
    }
    std::memcpy(static_cast<void*>(dst.v), bytes, kRegBytes);
}

// Stores through a distribution; a slot is written when the mask bit of its first byte is set.
template <typename E> __aicore__ void storeDist(const volatile void* dst, const RegTensor<E>& src, const MaskReg& mask,
                                                Dist d, ::sage::npu::Loc loc) {
    if (d.factor == 1) return storeRegister(dst, src, mask, lanesOf<E>(), "StoreAlign", loc);
    uint8_t bytes[kRegBytes], packed[kRegBytes];
    std::memcpy(bytes, static_cast<const void*>(src.v), kRegBytes);
    bool on[kRegBytes] = {};
    const uint32_t slot = d.factor == 0 ? d.es : d.es * d.factor;
    const uint32_t n = d.factor == 0 ? 1 : kRegBytes / slot;
    for (uint32_t j = 0; j < n; ++j) {
        std::memcpy(packed + j * d.es, bytes + j * slot, d.es);
        on[j] = mask.byteOn(j * slot);
    }
    ::sage::npu::rt::regStore(regUb(dst), packed, on, d.es, n, n == 1 ? d.es : 32u, "StoreAlign", loc);
}
} // namespace detail

template <typename T = void, LoadDist dist = LoadDist::DIST_NORM, typename E, typename P>
__aicore__ inline void LoadAlign(RegTensor<E>& dst, P* src, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    detail::loadDist(dst, src, detail::distOf(dist, uint32_t(sizeof(E))), loc);
}
template <typename T, PostLiteral post, LoadDist dist = LoadDist::DIST_NORM, typename E, typename P>
__aicore__ inline void LoadAlign(RegTensor<E>& dst, P*& src, int32_t stride,
                                 ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    LoadAlign<T, dist>(dst, src, loc);
    if constexpr (post == PostLiteral::POST_MODE_UPDATE) src += stride;
}

// An address register: an element offset from a base address, Σ index_k * stride_k.
struct AddrReg {
    int64_t offset = 0;
};
template <typename T, typename... Ints> __aicore__ inline AddrReg CreateAddrReg(Ints... indexStridePairs) {
    static_assert(sizeof...(Ints) % 2 == 0, "CreateAddrReg takes (index, stride) pairs");
    const int64_t v[] = {int64_t(indexStridePairs)..., 0};
    AddrReg r;
    for (size_t k = 0; k + 1 < sizeof...(Ints); k += 2) r.offset += v[k] * v[k + 1];
    return r;
}
template <typename T = void, LoadDist dist = LoadDist::DIST_NORM, typename E, typename P>
__aicore__ inline void LoadAlign(RegTensor<E>& dst, P* src, AddrReg offset,
                                 ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    LoadAlign<T, dist>(dst, src + offset.offset, loc);
}

// A mask register from UB: 32 bytes, one bit per byte of a vector register.
enum class MaskDist { DIST_NORM, DIST_US, DIST_DS };
template <typename T = void, auto dist = LoadDist::DIST_NORM, typename P>
__aicore__ inline void LoadAlign(MaskReg& dst, P* src, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    static_assert(dist == decltype(dist)::DIST_NORM, "only the plain mask load is simulated");
    ::sage::npu::rt::regLoad(detail::regUb(src), dst.bits, uint32_t(sizeof(dst.bits)), 32, "LoadAlign", loc);
}
template <typename T, PostLiteral post, LoadDist dist = LoadDist::DIST_NORM, typename P>
__aicore__ inline void LoadAlign(MaskReg& dst, P*& src, int32_t stride,
                                 ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    LoadAlign<T, dist>(dst, src, loc);
    if constexpr (post == PostLiteral::POST_MODE_UPDATE) src += stride;
}

template <typename T = void, StoreDist dist = StoreDist::DIST_NORM, typename E, typename P>
__aicore__ inline void StoreAlign(P* dst, const RegTensor<E>& src, const MaskReg& mask,
                                  ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    detail::storeDist(dst, src, mask, detail::distOf(dist, uint32_t(sizeof(E))), loc);
}
template <typename T, PostLiteral post, StoreDist dist = StoreDist::DIST_NORM, typename E, typename P>
__aicore__ inline void StoreAlign(P*& dst, const RegTensor<E>& src, int32_t stride, const MaskReg& mask,
                                  ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    StoreAlign<T, dist>(dst, src, mask, loc);
    if constexpr (post == PostLiteral::POST_MODE_UPDATE) dst += stride;
}
template <typename T = void, StoreDist dist = StoreDist::DIST_NORM, typename E, typename P>
__aicore__ inline void StoreAlign(P* dst, const RegTensor<E>& src, AddrReg offset, const MaskReg& mask,
                                  ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    StoreAlign<T, dist>(dst + offset.offset, src, mask, loc);
}

// DataCopy: the earlier spelling of LoadAlign (register destination) and StoreAlign (address
// destination), with the same template arguments.
namespace detail {
template <typename X> struct IsRegOperand : std::false_type {};
template <typename E, typename Tr> struct IsRegOperand<RegTensor<E, Tr>> : std::true_type {};
template <> struct IsRegOperand<MaskReg> : std::true_type {};
template <typename X> constexpr bool isRegOperand = IsRegOperand<std::remove_cvref_t<X>>::value;
} // namespace detail
template <typename T = void, auto... More, typename D, typename... Rest>
    requires(detail::isRegOperand<D> || (detail::isRegOperand<Rest> || ...))
__aicore__ inline void DataCopy(D&& dst, Rest&&... rest) {
    if constexpr (std::is_pointer_v<std::decay_t<D>>) StoreAlign<T, More...>(dst, static_cast<Rest&&>(rest)...);
    else LoadAlign<T, More...>(dst, static_cast<Rest&&>(rest)...);
}

// Unaligned access: an address aligned to the element only. The Pre/Post calls prime and flush
// the alignment register on the device; here every LoadUnAlign/StoreUnAlign moves its elements
// at once (the same memory contents once the Post has run), so they only cost an issue slot.
struct UnalignReg {};
using UnalignRegForLoad = UnalignReg;
using UnalignRegForStore = UnalignReg;
template <typename P>
__aicore__ inline void LoadUnAlignPre(UnalignRegForLoad&, P*, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    detail::issue("LoadUnAlignPre", ::sage::npu::VecOp::Copy, ::sage::npu::DType::F32, loc);
}
// `count` elements from src (the rest of the register cleared); src advances by count.
template <typename T = void, typename E, typename P>
__aicore__ inline void LoadUnAlign(RegTensor<E>& dst, UnalignRegForLoad&, P*& src, uint32_t count,
                                   ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    const uint32_t n = count < detail::lanesOf<E>() ? count : detail::lanesOf<E>();
    RegTensor<E> r;
    if (n) ::sage::npu::rt::regLoad(detail::regUb(src), r.v, n * uint32_t(sizeof(E)), uint32_t(sizeof(E)),
                                    "LoadUnAlign", loc);
    dst = r;
    src += count;
}
// The first `count` lanes of src to dst; dst advances by count.
template <typename T = void, typename E, typename P>
__aicore__ inline void StoreUnAlign(P*& dst, const RegTensor<E>& src, UnalignRegForStore&, uint32_t count,
                                    ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    const uint32_t n = count < detail::lanesOf<E>() ? count : detail::lanesOf<E>();
    bool on[kRegBytes] = {};
    for (uint32_t i = 0; i < n; ++i) on[i] = true;
    if (n) ::sage::npu::rt::regStore(detail::regUb(dst), src.v, on, uint32_t(sizeof(E)), n, uint32_t(sizeof(E)),
                                     "StoreUnAlign", loc);
    dst += count;
}
template <typename T = void, typename P>
__aicore__ inline void StoreUnAlignPost(P*&, UnalignRegForStore&, int32_t = 0,
                                        ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    detail::issue("StoreUnAlignPost", ::sage::npu::VecOp::Copy, ::sage::npu::DType::F32, loc);
}

// The earlier spellings: DataCopyUnAlignPre = LoadUnAlignPre, DataCopyUnAlign(reg, u, addr, n) =
// LoadUnAlign, DataCopyUnAlign(addr, reg, u, n) = StoreUnAlign, DataCopyUnAlignPost = StoreUnAlignPost.
template <typename T = void, typename P>
__aicore__ inline void DataCopyUnAlignPre(UnalignReg& u, P* src, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    LoadUnAlignPre(u, src, loc);
}
template <typename T = void, typename E, typename P>
__aicore__ inline void DataCopyUnAlign(RegTensor<E>& dst, UnalignReg& u, P*& src, uint32_t count,
                                       ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    LoadUnAlign(dst, u, src, count, loc);
}
template <typename T = void, typename E, typename P>
__aicore__ inline void DataCopyUnAlign(P*& dst, const RegTensor<E>& src, UnalignReg& u, uint32_t count,
                                       ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    StoreUnAlign(dst, src, u, count, loc);
}
template <typename T = void, typename P>
__aicore__ inline void DataCopyUnAlignPost(P*& dst, UnalignReg& u, int32_t offset = 0,
                                           ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    StoreUnAlignPost(dst, u, offset, loc);
}

// Orders register-code memory accesses. The simulator runs a VF's loads and stores in program
// order, so a later load always sees an earlier store; the barrier costs one issue slot.
template <MemType src, MemType dst>
__aicore__ inline void LocalMemBar(::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    ::sage::npu::rt::scalarWork(1);
    (void)loc;
}

} // namespace Reg

namespace MicroAPI = Reg;

} // namespace AscendC

// Calls a `__simd_vf__` function with its arguments: on the simulator its register instructions
// are issued on PIPE_V as it runs.
template <auto F, typename... Args> __aicore__ inline void asc_vf_call(Args&&... args) {
    F(static_cast<Args&&>(args)...);
}
