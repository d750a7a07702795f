// The register-level vector API's arithmetic (kernel_vec_reg.h has the registers, masks, loads
// and stores): fills, lane-wise arithmetic with zeroing or merging masks, bit-wise operations,
// shifts, fused multiply-add, register copies and mask algebra. Semantics: docs/kernel-api.md
// "Register-level vector API".
#pragma once

#include "kernel_vec_reg.h"

#include <algorithm>
// No <cmath>: it declares libm names (sin, exp, ...) globally, and a kernel entry may carry one of them.
#include <cstring>
#include <limits>
#include <type_traits>

namespace AscendC::Reg {

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
        if constexpr (std::is_integral_v<E>) return detail::fromNum<E>(q == 0 ? 0.0 : __builtin_trunc(p / q));
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
SAGE_REG_UNARY(Exp, Exp, __builtin_exp(p))
SAGE_REG_UNARY(Ln, Ln, __builtin_log(p))
SAGE_REG_UNARY(Log, Ln, __builtin_log(p))
SAGE_REG_UNARY(Sqrt, Sqrt, __builtin_sqrt(p))
SAGE_REG_UNARY(Abs, Abs, __builtin_fabs(p))
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

} // namespace AscendC::Reg
