// Reductions (PIPE_V). ReduceSum/Max/Min reduce `count` elements to dst[0] (dst[1] = index
// when calIndex); WholeReduce* reduce each repeat to one value; BlockReduce* each 32-byte block.
// Order of fp additions: a binary tree inside each 256-byte repeat, then the repeat results
// are reduced again the same way, as the hardware documents.
#pragma once

#include "kernel_vec.h"

namespace AscendC {

enum class ReduceOrder : int { ORDER_VALUE_INDEX = 0, ORDER_INDEX_VALUE = 1, ORDER_ONLY_VALUE = 2, ORDER_ONLY_INDEX = 3 };
constexpr ReduceOrder ORDER_VALUE_INDEX = ReduceOrder::ORDER_VALUE_INDEX;
constexpr ReduceOrder ORDER_INDEX_VALUE = ReduceOrder::ORDER_INDEX_VALUE;
constexpr ReduceOrder ORDER_ONLY_VALUE = ReduceOrder::ORDER_ONLY_VALUE;
constexpr ReduceOrder ORDER_ONLY_INDEX = ReduceOrder::ORDER_ONLY_INDEX;

#define SAGE_REDUCE(Name, Op)                                                                               \
    template <typename T>                                                                                   \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,                       \
                                const LocalTensor<T>& sharedTmpBuffer, const int32_t count,                 \
                                bool calIndex = false, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) { \
        SAGE_TYPE_CHECK(detail::kFloat<T>, #Name, "half, float");                                           \
        ::sage::npu::rt::vecReduce(::sage::npu::ReduceOp::Op, ::sage::npu::dtypeOf<T>, dst.ref(), src.ref(),  \
                                   &sharedTmpBuffer.ref(), count < 0 ? 0 : uint64_t(count), calIndex, loc);  \
    }
SAGE_REDUCE(ReduceSum, Sum)
SAGE_REDUCE(ReduceMax, Max)
SAGE_REDUCE(ReduceMin, Min)
#undef SAGE_REDUCE

#define SAGE_WHOLE_REDUCE(Name, Op, Block)                                                                  \
    template <typename T, bool isSetMask = true>                                                            \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t mask,    \
                                const int32_t repeatTime, const int32_t dstRepStride,                       \
                                const int32_t srcBlkStride, const int32_t srcRepStride,                     \
                                ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX,                         \
                                ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {                       \
        SAGE_TYPE_CHECK(detail::kFloat<T>, #Name, "half, float");                                           \
        uint64_t m[2];                                                                                      \
        detail::contMask(uint64_t(mask < 0 ? 0 : mask), m);                                                 \
        ::sage::npu::rt::vecWholeReduce(::sage::npu::ReduceOp::Op, ::sage::npu::dtypeOf<T>, dst.ref(), src.ref(), \
                                        m[0], m[1], uint32_t(repeatTime), dstRepStride, srcBlkStride,        \
                                        srcRepStride, static_cast<int>(order), Block,                        \
                                        ::sage::npu::rt::maskCounter(), loc);                               \
    }                                                                                                       \
    template <typename T, bool isSetMask = true>                                                            \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[], \
                                const int32_t repeatTime, const int32_t dstRepStride,                       \
                                const int32_t srcBlkStride, const int32_t srcRepStride,                     \
                                ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX,                         \
                                ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {                       \
        SAGE_TYPE_CHECK(detail::kFloat<T>, #Name, "half, float");                                           \
        ::sage::npu::rt::vecWholeReduce(::sage::npu::ReduceOp::Op, ::sage::npu::dtypeOf<T>, dst.ref(), src.ref(), \
                                        mask[0], sizeof(T) == 2 ? mask[1] : 0, uint32_t(repeatTime),         \
                                        dstRepStride, srcBlkStride, srcRepStride, static_cast<int>(order),   \
                                        Block, ::sage::npu::rt::maskCounter(), loc);                        \
    }
SAGE_WHOLE_REDUCE(WholeReduceSum, Sum, false)
SAGE_WHOLE_REDUCE(WholeReduceMax, Max, false)
SAGE_WHOLE_REDUCE(WholeReduceMin, Min, false)
SAGE_WHOLE_REDUCE(BlockReduceSum, Sum, true)
SAGE_WHOLE_REDUCE(BlockReduceMax, Max, true)
SAGE_WHOLE_REDUCE(BlockReduceMin, Min, true)
#undef SAGE_WHOLE_REDUCE

} // namespace AscendC
