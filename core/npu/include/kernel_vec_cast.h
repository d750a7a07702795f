// Cast between data types with an explicit rounding mode (PIPE_V).
#pragma once

#include "kernel_vec.h"

namespace AscendC {

enum class RoundMode : int {
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
    static_assert(detail::kAnyVec<T> && detail::kAnyVec<U>,
                  "Cast: unsupported data type on this device (310P has no bfloat16_t)");
    ::sage::npu::rt::vecCast(::sage::npu::dtypeOf<T>, ::sage::npu::dtypeOf<U>, dst.ref(), src.ref(),
                             static_cast<int>(round), count, loc);
}

} // namespace AscendC
