// The register-level vector API of the Ascend 950 generation (AscendC::Reg, also spelled
// AscendC::MicroAPI): a `__simd_vf__` function called with `asc_vf_call<F>(args...)` (or a
// `__VEC_SCOPE__ { ... }` block) loads vector registers from raw UB addresses, computes on them
// under a lane mask and stores them back. A vector register holds GetVecLen() = 256 bytes; a
// mask register has one bit per byte of it, so lane i of a T-typed register is active when bit
// i * sizeof(T) is set. Loads and stores are UB accesses on PIPE_V (checked and race-tracked like
// every vector instruction); every register instruction costs one vector repeat on PIPE_V.
// Register arithmetic itself happens here, in the kernel's own process. Semantics:
// docs/kernel-api.md "Register-level vector API".
#pragma once

#include "kernel_cce_compat.h"

#include "kernel_vec_cast.h"

#include <algorithm>
#include <cmath>
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

// Bytes in one vector register.
__aicore__ constexpr uint32_t GetVecLen() { return 256; }

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
enum class ReduceType { SUM, MAX, MIN };
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
        if (std::isnan(x)) return T(0);
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

// ---- fills ----------------------------------------------------------------------------------
template <typename T = void, MaskMergeMode mode = MaskMergeMode::ZEROING, typename E, typename S,
          std::enable_if_t<!std::is_class_v<S> || std::is_same_v<S, half> || std::is_same_v<S, bfloat16_t>, int> = 0>
__aicore__ inline void Duplicate(RegTensor<E>& dst, S scalar, const MaskReg& mask,
                                 ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    detail::issue("Duplicate", ::sage::npu::VecOp::Duplicate, detail::dtypeFor<E>(), loc);
    const E value = detail::fromNum<E>(detail::toNum(scalar));
    detail::perLane<mode>(dst, mask, [&](uint32_t) { return value; });
}
template <typename T = void, typename E, typename S,
          std::enable_if_t<!std::is_class_v<S> || std::is_same_v<S, half> || std::is_same_v<S, bfloat16_t>, int> = 0>
__aicore__ inline void Duplicate(RegTensor<E>& dst, S scalar, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    Duplicate<T>(dst, scalar, CreateMask<E>(loc), loc);
}
// The register form: lane 0 of src to every active lane.
template <typename T = void, MaskMergeMode mode = MaskMergeMode::ZEROING, typename E>
__aicore__ inline void Duplicate(RegTensor<E>& dst, const RegTensor<E>& src, const MaskReg& mask,
                                 ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    detail::issue("Duplicate", ::sage::npu::VecOp::Duplicate, detail::dtypeFor<E>(), loc);
    const E value = src.v[0];
    detail::perLane<mode>(dst, mask, [&](uint32_t) { return value; });
}

// ---- element-wise arithmetic --------------------------------------------------------------------
#define SAGE_REG_BINARY(NAME, OP, EXPR)                                                                         \
    template <typename T = void, MaskMergeMode mode = MaskMergeMode::ZEROING, typename E>                     \
    __aicore__ inline void NAME(RegTensor<E>& dst, const RegTensor<E>& a, const RegTensor<E>& b,              \
                                const MaskReg& mask, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {     \
        detail::issue(#NAME, ::sage::npu::VecOp::OP, detail::dtypeFor<E>(), loc);                             \
        const RegTensor<E> x = a, y = b;                                                                      \
        detail::perLane<mode>(dst, mask, [&](uint32_t i) {                                                    \
            const double p = detail::toNum(x.v[i]), q = detail::toNum(y.v[i]);                                 \
            (void)p; (void)q;                                                                                  \
            return detail::fromNum<E>(EXPR);                                                                  \
        });                                                                                                   \
    }
SAGE_REG_BINARY(Add, Add, p + q)
SAGE_REG_BINARY(Sub, Sub, p - q)
SAGE_REG_BINARY(Mul, Mul, p * q)
SAGE_REG_BINARY(Max, Max, p > q ? p : q)
SAGE_REG_BINARY(Min, Min, p < q ? p : q)
#undef SAGE_REG_BINARY

// Div's mode is a MaskMergeMode or the address of a DivSpecificMode (merge mode, precision
// flag, algorithm); every algorithm gives the correctly rounded quotient here.
struct DivSpecificMode {
    MaskMergeMode mrgMode = MaskMergeMode::ZEROING;
    bool precisionMode = false;
    DivAlgo algo = DivAlgo::INTRINSIC;
};
namespace detail {
template <auto mode> constexpr MaskMergeMode mergeOf() {
    if constexpr (std::is_same_v<std::decay_t<decltype(mode)>, MaskMergeMode>) return mode;
    else return mode->mrgMode;
}
} // namespace detail
// Integer division by zero gives 0 here (the result the simulator chooses; the device's is undefined).
template <typename T = void, auto mode = MaskMergeMode::ZEROING, typename E>
__aicore__ inline void Div(RegTensor<E>& dst, const RegTensor<E>& a, const RegTensor<E>& b, const MaskReg& mask,
                           ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    detail::issue("Div", ::sage::npu::VecOp::Div, detail::dtypeFor<E>(), loc);
    const RegTensor<E> x = a, y = b;
    detail::perLane<detail::mergeOf<mode>()>(dst, mask, [&](uint32_t i) {
        const double p = detail::toNum(x.v[i]), q = detail::toNum(y.v[i]);
        if constexpr (std::is_integral_v<E>) return detail::fromNum<E>(q == 0 ? 0.0 : std::trunc(p / q));
        else return detail::fromNum<E>(p / q);
    });
}

#define SAGE_REG_SCALAR(NAME, OP, EXPR)                                                                         \
    template <typename T = void, MaskMergeMode mode = MaskMergeMode::ZEROING, typename E, typename S>          \
    __aicore__ inline void NAME(RegTensor<E>& dst, const RegTensor<E>& a, S scalar, const MaskReg& mask,      \
                                ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {                         \
        detail::issue(#NAME, ::sage::npu::VecOp::OP, detail::dtypeFor<E>(), loc);                             \
        const RegTensor<E> x = a;                                                                             \
        const double q = detail::toNum(detail::fromNum<E>(detail::toNum(scalar)));                            \
        detail::perLane<mode>(dst, mask, [&](uint32_t i) {                                                    \
            const double p = detail::toNum(x.v[i]);                                                           \
            return detail::fromNum<E>(EXPR);                                                                  \
        });                                                                                                   \
    }
SAGE_REG_SCALAR(Adds, Adds, p + q)
SAGE_REG_SCALAR(Muls, Muls, p * q)
SAGE_REG_SCALAR(Maxs, Maxs, p > q ? p : q)
SAGE_REG_SCALAR(Mins, Mins, p < q ? p : q)
#undef SAGE_REG_SCALAR

#define SAGE_REG_UNARY(NAME, OP, EXPR)                                                                          \
    template <typename T = void, MaskMergeMode mode = MaskMergeMode::ZEROING, typename E>                     \
    __aicore__ inline void NAME(RegTensor<E>& dst, const RegTensor<E>& a, const MaskReg& mask,                 \
                                ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {                         \
        detail::issue(#NAME, ::sage::npu::VecOp::OP, detail::dtypeFor<E>(), loc);                             \
        const RegTensor<E> x = a;                                                                             \
        detail::perLane<mode>(dst, mask, [&](uint32_t i) {                                                    \
            const double p = detail::toNum(x.v[i]);                                                           \
            return detail::fromNum<E>(EXPR);                                                                  \
        });                                                                                                   \
    }
SAGE_REG_UNARY(Exp, Exp, std::exp(p))
SAGE_REG_UNARY(Ln, Ln, std::log(p))
SAGE_REG_UNARY(Log, Ln, std::log(p))
SAGE_REG_UNARY(Sqrt, Sqrt, std::sqrt(p))
SAGE_REG_UNARY(Abs, Abs, std::fabs(p))
SAGE_REG_UNARY(Relu, Relu, p > 0 ? p : 0.0)
SAGE_REG_UNARY(Neg, Neg, -p)
#undef SAGE_REG_UNARY

// ---- bitwise, shifts, fused multiply-add, copies ----------------------------------------------------
namespace detail {
template <uint32_t N> struct BitsOf;
template <> struct BitsOf<1> { using type = uint8_t; };
template <> struct BitsOf<2> { using type = uint16_t; };
template <> struct BitsOf<4> { using type = uint32_t; };
template <> struct BitsOf<8> { using type = uint64_t; };
template <typename E> using BitsT = typename BitsOf<uint32_t(sizeof(E))>::type;
// Lane-wise on the raw bits of the elements (any element type).
template <MaskMergeMode mode, typename E, typename F>
__aicore__ void perLaneBits(RegTensor<E>& dst, const RegTensor<E>& a, const RegTensor<E>& b, const MaskReg& mask, F&& f) {
    const RegTensor<E> x = a, y = b;
    perLane<mode>(dst, mask, [&](uint32_t i) {
        BitsT<E> p, q;
        std::memcpy(&p, &x.v[i], sizeof(E));
        std::memcpy(&q, &y.v[i], sizeof(E));
        const BitsT<E> r = BitsT<E>(f(p, q));
        E out;
        std::memcpy(&out, &r, sizeof(E));
        return out;
    });
}
} // namespace detail

#define SAGE_REG_BITWISE(NAME, EXPR)                                                                            \
    template <typename T = void, MaskMergeMode mode = MaskMergeMode::ZEROING, typename E>                     \
    __aicore__ inline void NAME(RegTensor<E>& dst, const RegTensor<E>& a, const RegTensor<E>& b,              \
                                const MaskReg& mask, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {     \
        detail::issue(#NAME, ::sage::npu::VecOp::And, detail::dtypeFor<E>(), loc);                            \
        detail::perLaneBits<mode>(dst, a, b, mask, [](auto p, auto q) { return EXPR; });                     \
    }
SAGE_REG_BITWISE(And, p & q)
SAGE_REG_BITWISE(Or, p | q)
SAGE_REG_BITWISE(Xor, p ^ q)
#undef SAGE_REG_BITWISE
template <typename T = void, MaskMergeMode mode = MaskMergeMode::ZEROING, typename E>
__aicore__ inline void Not(RegTensor<E>& dst, const RegTensor<E>& a, const MaskReg& mask,
                           ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    detail::issue("Not", ::sage::npu::VecOp::Not, detail::dtypeFor<E>(), loc);
    detail::perLaneBits<mode>(dst, a, a, mask, [](auto p, auto) { return ~p; });
}
// Shifts of integer lanes by a scalar count (right shifts are arithmetic for signed types).
template <typename T = void, MaskMergeMode mode = MaskMergeMode::ZEROING, typename E, typename S>
__aicore__ inline void ShiftLefts(RegTensor<E>& dst, const RegTensor<E>& a, S count, const MaskReg& mask,
                                  ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    static_assert(std::is_integral_v<E>, "ShiftLefts shifts integer lanes");
    detail::issue("ShiftLefts", ::sage::npu::VecOp::ShiftLeft, detail::dtypeFor<E>(), loc);
    const RegTensor<E> x = a;
    const uint32_t n = uint32_t(count) < 8 * sizeof(E) ? uint32_t(count) : 0;
    const bool clear = uint32_t(count) >= 8 * sizeof(E);
    detail::perLane<mode>(dst, mask, [&](uint32_t i) {
        return clear ? E(0) : E(detail::BitsT<E>(detail::BitsT<E>(x.v[i]) << n));
    });
}
template <typename T = void, MaskMergeMode mode = MaskMergeMode::ZEROING, typename E, typename S>
__aicore__ inline void ShiftRights(RegTensor<E>& dst, const RegTensor<E>& a, S count, const MaskReg& mask,
                                   ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    static_assert(std::is_integral_v<E>, "ShiftRights shifts integer lanes");
    detail::issue("ShiftRights", ::sage::npu::VecOp::ShiftRight, detail::dtypeFor<E>(), loc);
    const RegTensor<E> x = a;
    const uint32_t n = uint32_t(count) < 8 * sizeof(E) ? uint32_t(count) : uint32_t(8 * sizeof(E) - 1);
    detail::perLane<mode>(dst, mask, [&](uint32_t i) {
        if (uint32_t(count) >= 8 * sizeof(E) && std::is_unsigned_v<E>) return E(0);
        return E(x.v[i] >> n);
    });
}
// dst = a * b + dst on the active lanes.
template <typename T = void, MaskMergeMode mode = MaskMergeMode::ZEROING, typename E>
__aicore__ inline void MulAddDst(RegTensor<E>& dst, const RegTensor<E>& a, const RegTensor<E>& b, const MaskReg& mask,
                                 ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    detail::issue("MulAddDst", ::sage::npu::VecOp::Mul, detail::dtypeFor<E>(), loc);
    const RegTensor<E> x = a, y = b, acc = dst;
    detail::perLane<mode>(dst, mask, [&](uint32_t i) {
        return detail::fromNum<E>(detail::toNum(x.v[i]) * detail::toNum(y.v[i]) + detail::toNum(acc.v[i]));
    });
}
// A register copy: all lanes, or the active ones (inactive cleared or kept by the merge mode).
template <typename T = void, MaskMergeMode mode = MaskMergeMode::ZEROING, typename E>
__aicore__ inline void Copy(RegTensor<E>& dst, const RegTensor<E>& src, const MaskReg& mask,
                            ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    detail::issue("Copy", ::sage::npu::VecOp::Copy, detail::dtypeFor<E>(), loc);
    const RegTensor<E> x = src;
    detail::perLane<mode>(dst, mask, [&](uint32_t i) { return x.v[i]; });
}
template <typename T = void, typename E>
__aicore__ inline void Copy(RegTensor<E>& dst, const RegTensor<E>& src,
                            ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    detail::issue("Copy", ::sage::npu::VecOp::Copy, detail::dtypeFor<E>(), loc);
    dst = src;
}

// Mask algebra: bit-wise over the predicate bits, limited to the governing mask's bits.
namespace detail {
template <typename F> __aicore__ void maskBits(MaskReg& dst, const MaskReg& a, const MaskReg& b, const MaskReg& g, F&& f) {
    MaskReg out;
    for (uint32_t i = 0; i < sizeof(out.bits); ++i) out.bits[i] = uint8_t(f(a.bits[i], b.bits[i]) & g.bits[i]);
    dst = out;
}
} // namespace detail
__aicore__ inline void And(MaskReg& dst, const MaskReg& a, const MaskReg& b, const MaskReg& mask,
                           ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    detail::issue("MaskAnd", ::sage::npu::VecOp::And, ::sage::npu::DType::U8, loc);
    detail::maskBits(dst, a, b, mask, [](uint8_t p, uint8_t q) { return p & q; });
}
__aicore__ inline void Or(MaskReg& dst, const MaskReg& a, const MaskReg& b, const MaskReg& mask,
                          ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    detail::issue("MaskOr", ::sage::npu::VecOp::Or, ::sage::npu::DType::U8, loc);
    detail::maskBits(dst, a, b, mask, [](uint8_t p, uint8_t q) { return p | q; });
}
__aicore__ inline void Xor(MaskReg& dst, const MaskReg& a, const MaskReg& b, const MaskReg& mask,
                           ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    detail::issue("MaskXor", ::sage::npu::VecOp::Or, ::sage::npu::DType::U8, loc);
    detail::maskBits(dst, a, b, mask, [](uint8_t p, uint8_t q) { return p ^ q; });
}
__aicore__ inline void Not(MaskReg& dst, const MaskReg& a, const MaskReg& mask,
                           ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    detail::issue("MaskNot", ::sage::npu::VecOp::Not, ::sage::npu::DType::U8, loc);
    detail::maskBits(dst, a, a, mask, [](uint8_t p, uint8_t) { return uint8_t(~p); });
}
__aicore__ inline void MaskAnd(MaskReg& dst, const MaskReg& a, const MaskReg& b, const MaskReg& mask,
                               ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    And(dst, a, b, mask, loc);
}
__aicore__ inline void MaskOr(MaskReg& dst, const MaskReg& a, const MaskReg& b, const MaskReg& mask,
                              ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    Or(dst, a, b, mask, loc);
}
__aicore__ inline void MaskXor(MaskReg& dst, const MaskReg& a, const MaskReg& b, const MaskReg& mask,
                               ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    Xor(dst, a, b, mask, loc);
}
__aicore__ inline void MaskNot(MaskReg& dst, const MaskReg& a, const MaskReg& mask,
                               ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    Not(dst, a, mask, loc);
}
// Bit i from a where sel's bit i is set, else from b.
__aicore__ inline void MaskSel(MaskReg& dst, const MaskReg& a, const MaskReg& b, const MaskReg& sel,
                               ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    detail::issue("MaskSel", ::sage::npu::VecOp::Copy, ::sage::npu::DType::U8, loc);
    MaskReg out;
    for (uint32_t i = 0; i < sizeof(out.bits); ++i) out.bits[i] = uint8_t((a.bits[i] & sel.bits[i]) | (b.bits[i] & ~sel.bits[i]));
    dst = out;
}

// ---- reductions: the result in lane 0, every other lane cleared ------------------------------------
template <ReduceType type = ReduceType::SUM, typename T = void, typename U = void,
          MaskMergeMode mode = MaskMergeMode::ZEROING, typename E>
__aicore__ inline void Reduce(RegTensor<E>& dst, const RegTensor<E>& src, const MaskReg& mask,
                              ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    detail::issue(type == ReduceType::SUM ? "ReduceSum" : type == ReduceType::MAX ? "ReduceMax" : "ReduceMin",
                  ::sage::npu::VecOp::Add, detail::dtypeFor<E>(), loc);
    bool any = false;
    double acc = 0;
    for (uint32_t i = 0; i < detail::lanesOf<E>(); ++i) {
        if (!mask.lane<E>(i)) continue;
        const double x = detail::toNum(src.v[i]);
        if (type == ReduceType::SUM) acc += x;
        else if (!any || (type == ReduceType::MAX ? x > acc : x < acc)) acc = x;
        any = true;
    }
    if (!any && type != ReduceType::SUM)
        acc = type == ReduceType::MAX ? -std::numeric_limits<double>::infinity()
                                      : std::numeric_limits<double>::infinity();
    const E result = detail::fromNum<E>(acc);
    for (uint32_t i = 0; i < detail::lanesOf<E>(); ++i) dst.v[i] = E{};
    dst.v[0] = result;
}
template <typename T = void, MaskMergeMode mode = MaskMergeMode::ZEROING, typename E>
__aicore__ inline void ReduceSum(RegTensor<E>& dst, const RegTensor<E>& src, const MaskReg& mask,
                                 ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    Reduce<ReduceType::SUM>(dst, src, mask, loc);
}
template <typename T = void, MaskMergeMode mode = MaskMergeMode::ZEROING, typename E>
__aicore__ inline void ReduceMax(RegTensor<E>& dst, const RegTensor<E>& src, const MaskReg& mask,
                                 ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    Reduce<ReduceType::MAX>(dst, src, mask, loc);
}
template <typename T = void, MaskMergeMode mode = MaskMergeMode::ZEROING, typename E>
__aicore__ inline void ReduceMin(RegTensor<E>& dst, const RegTensor<E>& src, const MaskReg& mask,
                                 ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    Reduce<ReduceType::MIN>(dst, src, mask, loc);
}

// Floating values rounded to an integral value (still floating) with `round`.
template <typename T = void, RoundMode round = RoundMode::CAST_TRUNC, MaskMergeMode mode = MaskMergeMode::ZEROING,
          typename E>
__aicore__ inline void Truncate(RegTensor<E>& dst, const RegTensor<E>& a, const MaskReg& mask,
                                ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    detail::issue("Truncate", ::sage::npu::VecOp::Trunc, detail::dtypeFor<E>(), loc);
    const RegTensor<E> x = a;
    detail::perLane<mode>(dst, mask, [&](uint32_t i) {
        const double p = detail::toNum(x.v[i]);
        double r = std::trunc(p);
        if (round == RoundMode::CAST_FLOOR) r = std::floor(p);
        else if (round == RoundMode::CAST_CEIL) r = std::ceil(p);
        else if (round == RoundMode::CAST_ROUND) r = std::round(p);
        else if (round == RoundMode::CAST_RINT) r = std::nearbyint(p);
        return detail::fromNum<E>(r);
    });
}

// Lane i = start + i (an index vector).
template <typename T = void, typename E, typename S>
__aicore__ inline void Arange(RegTensor<E>& dst, S start, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    detail::issue("Arange", ::sage::npu::VecOp::Copy, detail::dtypeFor<E>(), loc);
    const double first = detail::toNum(start);
    for (uint32_t i = 0; i < detail::lanesOf<E>(); ++i) dst.v[i] = detail::fromNum<E>(first + double(i));
}

// Lane i = src[index[i]]; an index past the register's lanes wraps around it (the register
// is the only data the instruction can reach).
template <typename T = void, typename U = void, typename E, typename I>
__aicore__ inline void Gather(RegTensor<E>& dst, const RegTensor<E>& src, const RegTensor<I>& index,
                              ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    detail::issue("Gather", ::sage::npu::VecOp::Copy, detail::dtypeFor<E>(), loc);
    const RegTensor<E> x = src;
    const uint32_t n = detail::lanesOf<E>();
    for (uint32_t i = 0; i < n && i < detail::lanesOf<I>(); ++i)
        dst.v[i] = x.v[uint64_t(detail::toNum(index.v[i]) < 0 ? 0 : detail::toNum(index.v[i])) % n];
}

// The UB forms: lane i = base[index[i]] (Gather, also spelled DataCopyGather), and
// base[index[i]] = lane i (Scatter, DataCopyScatter), for the active lanes; indices count
// elements. Each is one instruction; every address is checked against UB.
namespace detail {
template <typename E, typename I>
__aicore__ void laneOffsets(const RegTensor<I>& index, const MaskReg& mask, uint32_t* offsets, bool* on) {
    for (uint32_t i = 0; i < lanesOf<E>(); ++i) {
        on[i] = i < lanesOf<I>() && mask.lane<E>(i);
        const double k = on[i] ? toNum(index.v[i]) : 0.0;
        offsets[i] = uint32_t(k < 0 ? 0 : k) * uint32_t(sizeof(E));
    }
}
} // namespace detail
template <typename T0 = void, typename T1 = void, typename T2 = void, typename E, typename P, typename I>
__aicore__ inline void Gather(RegTensor<E>& dst, P* base, const RegTensor<I>& index, const MaskReg& mask,
                              ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    uint32_t offsets[kRegBytes];
    bool on[kRegBytes];
    detail::laneOffsets<E>(index, mask, offsets, on);
    RegTensor<E> r;
    ::sage::npu::rt::regGather(detail::regUb(base), r.v, offsets, on, uint32_t(sizeof(E)), detail::lanesOf<E>(),
                               "Gather", loc);
    dst = r;
}
template <typename T0 = void, typename T1 = void, typename T2 = void, typename E, typename P, typename I>
__aicore__ inline void DataCopyGather(RegTensor<E>& dst, P* base, const RegTensor<I>& index, const MaskReg& mask,
                                      ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    Gather(dst, base, index, mask, loc);
}
template <typename T = void, typename U = void, typename E, typename P, typename I>
__aicore__ inline void Scatter(P* base, const RegTensor<E>& src, const RegTensor<I>& index, const MaskReg& mask,
                               ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    uint32_t offsets[kRegBytes];
    bool on[kRegBytes];
    detail::laneOffsets<E>(index, mask, offsets, on);
    ::sage::npu::rt::regScatter(detail::regUb(base), src.v, offsets, on, uint32_t(sizeof(E)), detail::lanesOf<E>(),
                                "Scatter", loc);
}
template <typename T = void, typename U = void, typename E, typename P, typename I>
__aicore__ inline void DataCopyScatter(P* base, const RegTensor<E>& src, const RegTensor<I>& index,
                                       const MaskReg& mask, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    Scatter(base, src, index, mask, loc);
}

// Per 32-byte block of the source, the reduction of its active lanes to lane `block` (eight
// results); the other lanes are cleared.
template <ReduceType type = ReduceType::SUM, typename T = void, MaskMergeMode mode = MaskMergeMode::ZEROING,
          typename E>
__aicore__ inline void ReduceDataBlock(RegTensor<E>& dst, const RegTensor<E>& src, const MaskReg& mask,
                                       ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    detail::issue("ReduceDataBlock", ::sage::npu::VecOp::Add, detail::dtypeFor<E>(), loc);
    constexpr uint32_t perBlock = 32 / uint32_t(sizeof(E));
    E out[kRegBytes / 32];
    for (uint32_t b = 0; b < kRegBytes / 32; ++b) {
        double acc = type == ReduceType::SUM ? 0.0
                     : type == ReduceType::MAX ? -std::numeric_limits<double>::infinity()
                                               : std::numeric_limits<double>::infinity();
        for (uint32_t j = 0; j < perBlock; ++j) {
            const uint32_t i = b * perBlock + j;
            if (!mask.lane<E>(i)) continue;
            const double x = detail::toNum(src.v[i]);
            acc = type == ReduceType::SUM ? acc + x : type == ReduceType::MAX ? std::max(acc, x) : std::min(acc, x);
        }
        out[b] = detail::fromNum<E>(acc);
    }
    for (uint32_t i = 0; i < detail::lanesOf<E>(); ++i) dst.v[i] = i < kRegBytes / 32 ? out[i] : E{};
}

enum class PairReduce { SUM };
// Lane i = src[2i] + src[2i+1] (inactive source lanes count as 0) for the first half; the upper
// half is cleared.
template <PairReduce type = PairReduce::SUM, typename T = void, MaskMergeMode mode = MaskMergeMode::ZEROING,
          typename E>
__aicore__ inline void PairReduceElem(RegTensor<E>& dst, const RegTensor<E>& src, const MaskReg& mask,
                                      ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    detail::issue("PairReduceElem", ::sage::npu::VecOp::Add, detail::dtypeFor<E>(), loc);
    const RegTensor<E> x = src;
    const uint32_t n = detail::lanesOf<E>();
    auto at = [&](uint32_t i) { return mask.lane<E>(i) ? detail::toNum(x.v[i]) : 0.0; };
    for (uint32_t i = 0; i < n; ++i) dst.v[i] = i < n / 2 ? detail::fromNum<E>(at(2 * i) + at(2 * i + 1)) : E{};
}

// ---- relayout ------------------------------------------------------------------------------------
// Interleave: dst0 = a0 b0 a1 b1 ... from the lower halves of a and b, dst1 from the upper halves.
// DeInterleave is its inverse: dst0 takes the even elements of (a, b), dst1 the odd ones.
template <typename T = void, typename E>
__aicore__ inline void Interleave(RegTensor<E>& dst0, RegTensor<E>& dst1, const RegTensor<E>& a,
                                  const RegTensor<E>& b, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    detail::issue("Interleave", ::sage::npu::VecOp::Copy, detail::dtypeFor<E>(), loc);
    constexpr uint32_t n = detail::lanesOf<E>();
    const RegTensor<E> x = a, y = b;
    for (uint32_t i = 0; i < n / 2; ++i) {
        dst0.v[2 * i] = x.v[i];
        dst0.v[2 * i + 1] = y.v[i];
        dst1.v[2 * i] = x.v[n / 2 + i];
        dst1.v[2 * i + 1] = y.v[n / 2 + i];
    }
}
template <typename T = void, typename E>
__aicore__ inline void DeInterleave(RegTensor<E>& dst0, RegTensor<E>& dst1, const RegTensor<E>& a,
                                    const RegTensor<E>& b, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    detail::issue("DeInterleave", ::sage::npu::VecOp::Copy, detail::dtypeFor<E>(), loc);
    constexpr uint32_t n = detail::lanesOf<E>();
    const RegTensor<E> x = a, y = b;
    for (uint32_t i = 0; i < n; ++i) {
        const E& v = i < n / 2 ? x.v[2 * i] : y.v[2 * (i - n / 2)];
        const E& w = i < n / 2 ? x.v[2 * i + 1] : y.v[2 * (i - n / 2) + 1];
        dst0.v[i] = v;
        dst1.v[i] = w;
    }
}

// ---- conversion -----------------------------------------------------------------------------------
// Between types of different widths a register holds the narrow elements in the RegLayout-th
// part of each wide slot (ZERO: the low part). Widening reads those parts, narrowing writes them
// (the other parts are cleared). The mask selects wide lanes. Rounding and saturation follow the
// simulator's vector Cast (docs/kernel-api.md); SatMode::SAT clamps integer results.
enum class RegLayout { UNKNOWN = -1, ZERO, ONE, TWO, THREE };
enum class SatMode { UNKNOWN = -1, NO_SAT, SAT };
struct CastTrait {
    RegLayout layoutMode = RegLayout::UNKNOWN;
    SatMode satMode = SatMode::UNKNOWN;
    MaskMergeMode mrgMode = MaskMergeMode::ZEROING;
    RoundMode roundMode = RoundMode::CAST_NONE;
};
constexpr CastTrait kDefaultCastTrait{};

template <typename D, typename S, const CastTrait& trait = kDefaultCastTrait, typename DE, typename SE>
__aicore__ inline void Cast(RegTensor<DE>& dst, const RegTensor<SE>& src, const MaskReg& mask,
                            ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    static_assert(sizeof(DE) == sizeof(D) && sizeof(SE) == sizeof(S), "Cast<D, S>: the registers must hold D and S");
    constexpr uint32_t ds = sizeof(D), ss = sizeof(S);
    constexpr uint32_t wide = ds > ss ? ds : ss, ratio = ds > ss ? ds / ss : ss / ds;
    constexpr uint32_t n = kRegBytes / wide;  // lanes converted: one per wide slot
    const uint32_t part = trait.layoutMode == RegLayout::UNKNOWN ? 0u : uint32_t(trait.layoutMode) % ratio;
    S in[n];
    D out[n];
    for (uint32_t i = 0; i < n; ++i) std::memcpy(&in[i], reinterpret_cast<const uint8_t*>(src.v) + i * wide +
                                                          (ss < ds ? part * ss : 0), ss);
    const int round = trait.roundMode == RoundMode::CAST_NONE ? 0 : int(trait.roundMode);
    ::sage::npu::rt::regCast(::sage::npu::dtypeOf<D>, ::sage::npu::dtypeOf<S>, out, in, round, n,
                             trait.satMode == SatMode::SAT, loc);
    uint8_t bytes[kRegBytes];
    std::memcpy(bytes, static_cast<const void*>(dst.v), kRegBytes);
    for (uint32_t i = 0; i < n; ++i) {
        uint8_t* slot = bytes + i * wide;
        if (!mask.byteOn(i * wide)) {
            if (trait.mrgMode == MaskMergeMode::ZEROING) std::memset(slot, 0, wide);
            continue;
        }
        if (ds < ss) std::memset(slot, 0, wide);
        std::memcpy(slot + (ds < ss ? part * ds : 0), &out[i], ds);
    }
    std::memcpy(static_cast<void*>(dst.v), bytes, kRegBytes);
}

// ---- compare and select ---------------------------------------------------------------------------
// Active lanes of the result mask where a CMP b holds; inactive lanes are cleared.
template <typename T = void, CMPMODE cmp = CMPMODE::EQ, typename E>
__aicore__ inline void Compare(MaskReg& dst, const RegTensor<E>& a, const RegTensor<E>& b, const MaskReg& mask,
                               ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    detail::issue("Compare", ::sage::npu::VecOp::Sub, detail::dtypeFor<E>(), loc);
    MaskReg out;
    for (uint32_t i = 0; i < detail::lanesOf<E>(); ++i) {
        const double p = detail::toNum(a.v[i]), q = detail::toNum(b.v[i]);
        const bool holds = cmp == CMPMODE::LT ? p < q : cmp == CMPMODE::GT ? p > q : cmp == CMPMODE::EQ ? p == q
                         : cmp == CMPMODE::LE ? p <= q : cmp == CMPMODE::GE ? p >= q : p != q;
        out.setByte(i * uint32_t(sizeof(E)), mask.lane<E>(i) && holds);
    }
    dst = out;
}
template <typename T = void, CMPMODE cmp = CMPMODE::EQ, typename E, typename S>
__aicore__ inline void Compares(MaskReg& dst, const RegTensor<E>& a, S scalar, const MaskReg& mask,
                                ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    RegTensor<E> b;
    const E value = detail::fromNum<E>(detail::toNum(scalar));
    for (auto& x : b.v) x = value;
    Compare<T, cmp>(dst, a, b, mask, loc);
}
// Lane i from a where sel holds, else from b.
template <typename T = void, typename E>
__aicore__ inline void Select(RegTensor<E>& dst, const RegTensor<E>& a, const RegTensor<E>& b, const MaskReg& sel,
                              ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    detail::issue("Select", ::sage::npu::VecOp::Copy, detail::dtypeFor<E>(), loc);
    const RegTensor<E> x = a, y = b;
    for (uint32_t i = 0; i < detail::lanesOf<E>(); ++i) dst.v[i] = sel.lane<E>(i) ? x.v[i] : y.v[i];
}

} // namespace Reg

namespace MicroAPI = Reg;

} // namespace AscendC

// Calls a `__simd_vf__` function with its arguments: on the simulator its register instructions
// are issued on PIPE_V as it runs.
template <auto F, typename... Args> __aicore__ inline void asc_vf_call(Args&&... args) {
    F(static_cast<Args&&>(args)...);
}
