// Reductions (PIPE_V). ReduceSum/Max/Min reduce `count` elements to dst[0] (dst[1] = index
// when calIndex); WholeReduce* reduce each repeat to one value; BlockReduce* each 32-byte block.
// Order of fp additions, as documented: a binary tree inside each 256-byte repeat (adjacent
// pairs, level by level); the repeat results of ReduceSum's count form are then added in order
// on 910B (A2/A3) and by the same tree again on 310P/910.
#pragma once

#include "kernel_vec.h"

namespace AscendC {

enum class ReduceOrder : int { ORDER_VALUE_INDEX = 0, ORDER_INDEX_VALUE = 1, ORDER_ONLY_VALUE = 2, ORDER_ONLY_INDEX = 3 };
constexpr ReduceOrder ORDER_VALUE_INDEX = ReduceOrder::ORDER_VALUE_INDEX;
constexpr ReduceOrder ORDER_INDEX_VALUE = ReduceOrder::ORDER_INDEX_VALUE;
constexpr ReduceOrder ORDER_ONLY_VALUE = ReduceOrder::ORDER_ONLY_VALUE;
constexpr ReduceOrder ORDER_ONLY_INDEX = ReduceOrder::ORDER_ONLY_INDEX;
// The operation of the ReduceType-templated reductions (ReduceRepeat, ReduceDataBlock, ReducePairElem
// and the register-level API).
enum class ReduceType { NONE = -1, SUM = 0, MAX, MIN };

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

// WholeReduce*(dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride[, order]).
#define SAGE_WHOLE_REDUCE(Name, Op)                                                                         \
    template <typename T, bool isSetMask = true>                                                            \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t mask,    \
                                const int32_t repeatTime, const int32_t dstRepStride,                       \
                                const int32_t srcBlkStride, const int32_t srcRepStride,                     \
                                ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX,                         \
                                ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {                       \
        SAGE_TYPE_CHECK(detail::kFloat<T>, #Name, "half, float");                                           \
        uint64_t m[2];                                                                                      \
        detail::contMask(uint64_t(mask < 0 ? 0 : mask), m);                                                 \
        detail::resolveMask<T, isSetMask>(m);                                                               \
        ::sage::npu::rt::vecWholeReduce(::sage::npu::ReduceOp::Op, ::sage::npu::dtypeOf<T>, dst.ref(), src.ref(), \
                                        m[0], m[1], uint32_t(repeatTime), dstRepStride, srcBlkStride,        \
                                        srcRepStride, static_cast<int>(order), false,                        \
                                        ::sage::npu::rt::maskCounter(), loc);                               \
    }                                                                                                       \
    template <typename T, bool isSetMask = true>                                                            \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[], \
                                const int32_t repeatTime, const int32_t dstRepStride,                       \
                                const int32_t srcBlkStride, const int32_t srcRepStride,                     \
                                ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX,                         \
                                ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {                       \
        SAGE_TYPE_CHECK(detail::kFloat<T>, #Name, "half, float");                                           \
        uint64_t m[2] = {mask[0], sizeof(T) == 2 ? mask[1] : 0};                                             \
        detail::resolveMask<T, isSetMask>(m);                                                               \
        ::sage::npu::rt::vecWholeReduce(::sage::npu::ReduceOp::Op, ::sage::npu::dtypeOf<T>, dst.ref(), src.ref(), \
                                        m[0], m[1], uint32_t(repeatTime), dstRepStride, srcBlkStride,        \
                                        srcRepStride, static_cast<int>(order), false,                        \
                                        ::sage::npu::rt::maskCounter(), loc);                               \
    }
SAGE_WHOLE_REDUCE(WholeReduceSum, Sum)
SAGE_WHOLE_REDUCE(WholeReduceMax, Max)
SAGE_WHOLE_REDUCE(WholeReduceMin, Min)
#undef SAGE_WHOLE_REDUCE

// BlockReduce*(dst, src, repeatTime, mask, dstRepStride, srcBlkStride, srcRepStride): note that
// AscendC puts repeatTime BEFORE the mask here, unlike WholeReduce*. Each repeat yields 8 results
// (one per 32-byte block); dstRepStride counts in units of those 8 results.
#define SAGE_BLOCK_REDUCE(Name, Op)                                                                         \
    template <typename T, bool isSetMask = true>                                                            \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime, \
                                const int32_t mask, const int32_t dstRepStride, const int32_t srcBlkStride, \
                                const int32_t srcRepStride, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) { \
        SAGE_TYPE_CHECK(detail::kFloat<T>, #Name, "half, float");                                           \
        uint64_t m[2];                                                                                      \
        detail::contMask(uint64_t(mask < 0 ? 0 : mask), m);                                                 \
        detail::resolveMask<T, isSetMask>(m);                                                               \
        ::sage::npu::rt::vecWholeReduce(::sage::npu::ReduceOp::Op, ::sage::npu::dtypeOf<T>, dst.ref(), src.ref(), \
                                        m[0], m[1], uint32_t(repeatTime), dstRepStride, srcBlkStride,        \
                                        srcRepStride, 0, true, ::sage::npu::rt::maskCounter(), loc);        \
    }                                                                                                       \
    template <typename T, bool isSetMask = true>                                                            \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime, \
                                const uint64_t mask[], const int32_t dstRepStride, const int32_t srcBlkStride, \
                                const int32_t srcRepStride, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) { \
        SAGE_TYPE_CHECK(detail::kFloat<T>, #Name, "half, float");                                           \
        uint64_t m[2] = {mask[0], sizeof(T) == 2 ? mask[1] : 0};                                             \
        detail::resolveMask<T, isSetMask>(m);                                                               \
        ::sage::npu::rt::vecWholeReduce(::sage::npu::ReduceOp::Op, ::sage::npu::dtypeOf<T>, dst.ref(), src.ref(), \
                                        m[0], m[1], uint32_t(repeatTime), dstRepStride, srcBlkStride,        \
                                        srcRepStride, 0, true, ::sage::npu::rt::maskCounter(), loc);        \
    }
SAGE_BLOCK_REDUCE(BlockReduceSum, Sum)
SAGE_BLOCK_REDUCE(BlockReduceMax, Max)
SAGE_BLOCK_REDUCE(BlockReduceMin, Min)
#undef SAGE_BLOCK_REDUCE

} // namespace AscendC
