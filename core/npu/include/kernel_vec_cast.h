// Cast between data types with an explicit rounding mode (PIPE_V).
#pragma once

#include "kernel_vec.h"

namespace AscendC {
namespace detail {
// Cast also converts int64_t on 910B (int64 <-> int32/float), which the other vector APIs do not take.
template <typename T> constexpr bool kCastType =
    isOneOf<T, half, float, int16_t, int32_t, uint16_t, uint32_t, int8_t, uint8_t, bfloat16_t, int64_t>();
} // namespace detail

enum class RoundMode : int {
    UNKNOWN = -1,   // not given (a CastTrait's default): as CAST_NONE
    CAST_NONE = 0,  // the conversion's natural mode: RINT where precision is lost, exact otherwise
    CAST_RINT = 1,  // round to nearest, ties to even
    CAST_FLOOR = 2,
    CAST_CEIL = 3,
    CAST_ROUND = 4,  // round to nearest, ties away from zero
    CAST_TRUNC = 5,
    CAST_ODD = 6,    // round to odd (von Neumann)
};

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& round,
                            const uint32_t count, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    // One message per cause, so that a kernel learns which of its types the device lacks.
    static_assert(!(__NPU_ARCH__ == 2002 && (std::is_same_v<T, bfloat16_t> || std::is_same_v<U, bfloat16_t>)),
                  "Cast: the 310P profile has no bfloat16_t; cast through half or float");
    static_assert(!(__NPU_ARCH__ == 2002 && (std::is_same_v<T, int64_t> || std::is_same_v<U, int64_t>)),
                  "Cast: the 310P profile has no int64_t vector casts; cast through int32_t");
    static_assert(detail::kCastType<T> && detail::kCastType<U>,
                  "Cast: a type here is not a vector data type (half, float, bfloat16_t, int8_t, uint8_t, "
                  "int16_t, uint16_t, int32_t, uint32_t, int64_t)");
    ::sage::npu::rt::vecCast(::sage::npu::dtypeOf<T>, ::sage::npu::dtypeOf<U>, dst.ref(), src.ref(),
                             static_cast<int>(round), count, loc);
}

} // namespace AscendC
