// The register-level vector API's reductions and data rearrangement (kernel_vec_reg.h has the
// registers, masks, loads and stores): reductions, Truncate, Arange, register and UB gather and
// scatter, block and pair reductions, interleaving, conversions between widths (Cast with
// CastTrait), compare and select. Semantics: docs/kernel-api.md "Register-level vector API".
#pragma once

#include "kernel_vec_reg.h"

#include <algorithm>
// No <cmath>: it declares libm names (sin, exp, ...) globally, and a kernel entry may carry one of them.
#include <cstring>
#include <limits>
#include <type_traits>

namespace AscendC::Reg {

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
        double r = __builtin_trunc(p);
        if (round == RoundMode::CAST_FLOOR) r = __builtin_floor(p);
        else if (round == RoundMode::CAST_CEIL) r = __builtin_ceil(p);
        else if (round == RoundMode::CAST_ROUND) r = __builtin_round(p);
        else if (round == RoundMode::CAST_RINT) r = __builtin_nearbyint(p);
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

} // namespace AscendC::Reg
