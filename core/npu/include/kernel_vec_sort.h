// Sort32 of the vector sort family: per repeat, 32 scores (half or float) and their uint32
// indices sorted by score, largest first, into (score, index) entries of 8 bytes each (the
// score in the low bytes, the index in the high 4). Groups are sorted independently.
#pragma once

#include "kernel_vec.h"

namespace AscendC {

template <typename T>
__aicore__ inline void Sort32(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<uint32_t>& src1,
                              const int32_t repeatTime, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    SAGE_TYPE_CHECK(detail::kFloat<T>, "Sort32", "half, float");
    ::sage::npu::rt::vecSort32(::sage::npu::dtypeOf<T>, dst.ref(), src0.ref(), src1.ref(), repeatTime, loc);
}

} // namespace AscendC
