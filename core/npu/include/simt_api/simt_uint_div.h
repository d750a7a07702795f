// Division by a loop-invariant unsigned divisor through a magic
// multiplier (the round-up method of Granlund and Montgomery, "Division by invariant integers
// using multiplication", PLDI 1994): GetUintDivMagicAndShift computes the pair once on the SIMD
// side, Simt::UintDiv(n, magic, shift) == n / d in every thread.
#pragma once

#include "simt_api/simt_builtins.h"

#include <type_traits>

namespace sage::simt {
template <typename T> using UintDivWide = std::conditional_t<sizeof(T) <= 4, uint64_t, unsigned __int128>;
} // namespace sage::simt

namespace AscendC {

// shift = ceil(log2 d); magic = floor(2^bits * (2^shift - d) / d) + 1 (bits = T's width). A
// divisor of 0 gives magic 0 and shift 0 (UintDiv then returns n, as a guard, not a quotient).
template <typename T, typename D>
__aicore__ inline void GetUintDivMagicAndShift(T& magic, T& shift, D divisor) {
    static_assert(std::is_integral_v<T>, "the magic and shift are integers");
    using U = std::make_unsigned_t<T>;
    using W = ::sage::simt::UintDivWide<U>;
    constexpr unsigned bits = sizeof(U) * 8;
    const U d = static_cast<U>(divisor);
    if (d == 0) {
        magic = 0;
        shift = 0;
        return;
    }
    unsigned s = 0;
    while (s < bits && (W(1) << s) < W(d)) ++s;
    magic = static_cast<T>(static_cast<U>(((W(1) << bits) * ((W(1) << s) - W(d))) / W(d) + 1));
    shift = static_cast<T>(s);
}

namespace Simt {
// n / d for the d that produced magic and shift.
// T defaults to the type of n.
template <typename T = void, typename N, typename M, typename S>
__aicore__ inline auto UintDiv(N n, M magic, S shift) {
    using R = std::conditional_t<std::is_void_v<T>, N, T>;
    using U = std::make_unsigned_t<R>;
    using W = ::sage::simt::UintDivWide<U>;
    constexpr unsigned bits = sizeof(U) * 8;
    const W x = W(static_cast<U>(n));
    const W hi = (x * W(static_cast<U>(magic))) >> bits;
    return static_cast<R>((hi + x) >> static_cast<unsigned>(shift));
}
} // namespace Simt

} // namespace AscendC

using AscendC::GetUintDivMagicAndShift;
