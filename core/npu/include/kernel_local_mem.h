// Static tensor programming without TPipe: LocalMemAllocator hands out LocalTensors one after the
// other in one physical memory (UB, L1, L0A, L0B, L0C, BIAS, FIXBUF), each start 32-byte aligned.
// Sizes are element counts. Nothing is freed; running past the memory's capacity is reported
// where the tensor is used, as for any local access.
#pragma once

#include "kernel_tensor.h"

namespace AscendC {

enum class Hardware : uint8_t { GM, UB, L1, L0A, L0B, L0C, BIAS, FIXBUF, MAX };

namespace detail {
// The position a tensor of each memory has when Alloc names none.
constexpr TPosition defaultPositionOf(Hardware hard) {
    switch (hard) {
    case Hardware::L1: return TPosition::A1;
    case Hardware::L0A: return TPosition::A2;
    case Hardware::L0B: return TPosition::B2;
    case Hardware::L0C: return TPosition::CO1;
    case Hardware::BIAS: return TPosition::C2;
    case Hardware::FIXBUF: return TPosition::C2;
    default: return TPosition::VECCALC;
    }
}
} // namespace detail

template <Hardware hard = Hardware::UB> class LocalMemAllocator {
public:
    static_assert(hard != Hardware::GM && hard != Hardware::MAX, "LocalMemAllocator allocates in a local memory, not GM");
    __aicore__ inline LocalMemAllocator() = default;
    __aicore__ inline uint32_t GetCurAddr() const { return next_; }

    template <TPosition pos, class DataType> __aicore__ inline LocalTensor<DataType> Alloc(uint32_t tileSize) {
        ::sage::npu::LocalRef ref;
        ref.pos = static_cast<::sage::npu::Pos>(pos);
        ref.addr = next_;
        ref.bytes = tileSize * uint32_t(sizeof(DataType));
        next_ = (next_ + ref.bytes + 31u) / 32u * 32u;
        return LocalTensor<DataType>(ref);
    }
    template <class DataType> __aicore__ inline LocalTensor<DataType> Alloc(uint32_t tileSize) {
        return Alloc<detail::defaultPositionOf(hard), DataType>(tileSize);
    }
    template <TPosition pos, class DataType, uint32_t tileSize> __aicore__ inline LocalTensor<DataType> Alloc() {
        return Alloc<pos, DataType>(tileSize);
    }
    template <class DataType, uint32_t tileSize> __aicore__ inline LocalTensor<DataType> Alloc() {
        return Alloc<detail::defaultPositionOf(hard), DataType>(tileSize);
    }

private:
    uint32_t next_ = 0;
};

} // namespace AscendC
