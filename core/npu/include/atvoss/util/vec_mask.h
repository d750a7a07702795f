// atvoss/util/vec_mask.h: Compare and Select of the DAG operations, with a 0/1 byte per element as
// the mask (what a DAG copies out as bool). For half/float (Compare also int32) with the
// schedule's scratch they run on the vector unit: Compare writes the bit mask, Select turns it
// into 0/1 halves and Cast into bytes; Select turns the bytes back into a bit mask with
// CompareScalar. Other types and scalar-only operands run on the scalar unit.
#pragma once

#include "atvoss/util/vec.h"  // OpRole and the scalar path (vec.h includes this file at its end)
#include "atvoss/util/vec_scratch.h"

namespace Ops::Base::Vec {

namespace sc = atvoss_scalar;

// Compare<M, T, mode>: dst[i] = 1 where a[i] cmp b[i] holds, else 0. mode numbers as AscendC
// CMPMODE: 0 LT, 1 GT, 2 EQ, 3 LE, 4 GE, 5 NE.
template <class M, class T, int mode> struct Compare {
    using DstType = M;
    static constexpr auto role = OpRole::Compute;
    static constexpr bool kNeedsScratch = true;

    template <class A, class B>
    __aicore__ inline Compare(const AscendC::LocalTensor<M>& dst, const A& a, const B& b, uint32_t count) {
        constexpr bool vec = std::is_same_v<M, uint8_t> && (std::is_same_v<T, half> || std::is_same_v<T, float> ||
                                                            std::is_same_v<T, int32_t>) &&
                             std::is_same_v<A, AscendC::LocalTensor<T>>;
        atvoss_scratch::Parts p;
        if constexpr (vec) {
            if (count > 0 && atvoss_scratch::take(count, p)) {
                if constexpr (std::is_same_v<B, AscendC::LocalTensor<T>>)
                    AscendC::Compare(p.bits, a, b, static_cast<AscendC::CMPMODE>(mode), count);
                else
                    AscendC::CompareScalar(p.bits, a, sc::convert<T>(b), static_cast<AscendC::CMPMODE>(mode), count);
                bitsToBytes(dst, p, count);
                return;
            }
        }
        sc::map(dst, count, [](auto x, auto y) { return holds(x, y) ? 1 : 0; }, a, b);
    }
    // dst[i] = bit i of p.bits as a 0/1 byte.
    __aicore__ static inline void bitsToBytes(const AscendC::LocalTensor<uint8_t>& dst, atvoss_scratch::Parts& p,
                                              uint32_t count) {
        auto ones = p.rest.template ReinterpretCast<half>();
        auto picked = p.rest[(2u * count + 31u) / 32u * 32u].template ReinterpretCast<half>();
        AscendC::Duplicate(ones, half(1.0f), int32_t(count));
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Select(picked, p.bits, ones, half(0.0f), AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE, count);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Cast(dst, picked, AscendC::RoundMode::CAST_NONE, count);
    }
    template <class X, class Y> static constexpr bool holds(X x, Y y) {
        switch (mode) {
        case 0: return x < y;
        case 1: return x > y;
        case 2: return x == y;
        case 3: return x <= y;
        case 4: return x >= y;
        default: return x != y;
        }
    }
};

// Select<M, T, mode>: dst[i] = mask[i] != 0 ? a[i] : b[i] (a, b tensors or scalars).
template <class M, class T, int mode = 2> struct Select {
    using DstType = T;
    static constexpr auto role = OpRole::Compute;
    static constexpr bool kNeedsScratch = true;

    template <class A, class B>
    __aicore__ inline Select(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<M>& mask, const A& a,
                             const B& b, uint32_t count) {
        constexpr bool vec = std::is_same_v<M, uint8_t> && (std::is_same_v<T, half> || std::is_same_v<T, float>) &&
                             std::is_same_v<A, AscendC::LocalTensor<T>>;
        atvoss_scratch::Parts p;
        if constexpr (vec) {
            if (count > 0 && atvoss_scratch::take(count, p)) {
                auto maskHalf = p.rest.template ReinterpretCast<half>();
                AscendC::Cast(maskHalf, mask, AscendC::RoundMode::CAST_NONE, count);
                AscendC::PipeBarrier<PIPE_V>();
                AscendC::CompareScalar(p.bits, maskHalf, half(0.0f), AscendC::CMPMODE::NE, count);
                AscendC::PipeBarrier<PIPE_V>();
                if constexpr (std::is_same_v<B, AscendC::LocalTensor<T>>)
                    AscendC::Select(dst, p.bits, a, b, AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE, count);
                else
                    AscendC::Select(dst, p.bits, a, sc::convert<T>(b), AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE, count);
                return;
            }
        }
        sc::map(dst, count, [](auto m, auto x, auto y) { return m != 0 ? sc::Calc<T>(x) : sc::Calc<T>(y); }, mask, a,
                b);
    }
};

} // namespace Ops::Base::Vec
