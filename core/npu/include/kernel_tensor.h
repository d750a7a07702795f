// GlobalTensor and LocalTensor: views of global memory and of a core's local memories.
#pragma once

#include "kernel_macros.h"

#include <type_traits>

namespace AscendC {

using TPosition = ::sage::npu::Pos;
using QuePosition = ::sage::npu::Pos;

// L2 cache hints of a GlobalTensor (SetL2CacheHint). The simulator has no L2 (every GM access pays
// HBM bandwidth, docs/device-model.md), so a hint changes neither data nor timing.
enum class CacheMode : uint8_t { CACHE_MODE_DISABLE = 0, CACHE_MODE_NORMAL = 1 };
enum CacheRwMode { READ = 1, WRITE = 2, RW = 3 };

template <typename T> class GlobalTensor {
public:
    __aicore__ GlobalTensor() = default;
    __aicore__ void SetGlobalBuffer(__gm__ T* buffer, uint64_t bufferSize) {
        address_ = buffer;
        size_ = bufferSize;
    }
    __aicore__ void SetGlobalBuffer(__gm__ T* buffer) {
        address_ = buffer;
        size_ = kUnbounded;
    }
    __aicore__ GlobalTensor operator[](uint64_t offset) const {
        GlobalTensor t;
        t.address_ = address_ + offset;
        t.size_ = size_ == kUnbounded ? kUnbounded : (offset <= size_ ? size_ - offset : 0);
        return t;
    }
    __aicore__ T GetValue(uint64_t index, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) const {
        T v;
        std::memcpy(&v, ::sage::npu::rt::scalarGm(ref(), index * sizeof(T), sizeof(T), false, loc), sizeof(T));
        return v;
    }
    __aicore__ void SetValue(uint64_t index, T value, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
        ::sage::npu::rt::scalarGmStore(ref(), index * sizeof(T), &value, sizeof(T), loc);
    }
    // gm(i): element access through the scalar unit, as GetValue/SetValue.
    struct ElementRef {
        GlobalTensor t;
        uint64_t index;
        ::sage::npu::Loc loc;
        operator T() const { return t.GetValue(index, loc); }
        ElementRef& operator=(T v) {
            t.SetValue(index, v, loc);
            return *this;
        }
        ElementRef& operator=(const ElementRef& o) { return *this = T(o); }
        // t(i) += v and friends: a scalar read, the arithmetic, a scalar write.
        ElementRef& operator+=(T v) { return *this = T(T(*this) + v); }
        ElementRef& operator-=(T v) { return *this = T(T(*this) - v); }
        ElementRef& operator*=(T v) { return *this = T(T(*this) * v); }
        ElementRef& operator/=(T v) { return *this = T(T(*this) / v); }
    };
    __aicore__ ElementRef operator()(uint64_t index, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) const {
        return ElementRef{*this, index, loc};
    }
    __aicore__ uint64_t GetSize() const { return size_ == kUnbounded ? 0 : size_; }
    __aicore__ __gm__ T* GetPhyAddr() const { return address_; }
    __aicore__ __gm__ T* GetPhyAddr(uint64_t offset) const { return address_ + offset; }
    __aicore__ void SetL2CacheHint(int) {}
    template <CacheRwMode rwMode = CacheRwMode::RW> __aicore__ void SetL2CacheHint(CacheMode) {}

    // Runtime view: pointer plus the end SetGlobalBuffer declared (if any).
    ::sage::npu::GmRef ref() const {
        ::sage::npu::GmRef r;
        r.ptr = reinterpret_cast<uint8_t*>(address_);
        r.limit = size_ == kUnbounded ? nullptr : reinterpret_cast<const uint8_t*>(address_ + size_);
        return r;
    }

    // The buffer's start, a public member in AscendC as well. A store through it bypasses the
    // simulator's GM accounting and is reported as a write the device did not make.
    T* address_ = nullptr;

private:
    static constexpr uint64_t kUnbounded = ~0ull;
    uint64_t size_ = kUnbounded;
};

template <typename T> class LocalTensor;

// Expression objects so that `c = a + b;` issues one vector instruction, as in AscendC.
template <typename T> struct LocalTensorExpr {
    ::sage::npu::VecOp op;
    const LocalTensor<T>* a;
    const LocalTensor<T>* b;
};

template <typename T> class LocalTensor {
public:
    using PrimType = T;
    __aicore__ LocalTensor() = default;
    __aicore__ LocalTensor(const ::sage::npu::LocalRef& ref) : ref_(ref) {}
    // Static tensor programming: `tileSize` elements at byte address `addr` of `pos`'s memory. The
    // 32-byte alignment and the memory's end are checked where the tensor is used.
    __aicore__ LocalTensor(::sage::npu::Pos pos, uint32_t addr, uint32_t tileSize)
        : ref_{pos, addr, uint32_t(uint64_t(tileSize) * sizeof(T))} {}

    __aicore__ LocalTensor operator[](uint32_t offset) const {
        ::sage::npu::LocalRef r = ref_;
        uint32_t off = offset * static_cast<uint32_t>(sizeof(T));
        r.addr += off;
        r.bytes = off <= ref_.bytes ? ref_.bytes - off : 0;
        return LocalTensor(r);
    }
    __aicore__ T GetValue(uint32_t index, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) const {
        T v;
        std::memcpy(&v, ::sage::npu::rt::scalarLocal(ref_, uint64_t(index) * sizeof(T), sizeof(T), false, loc),
                    sizeof(T));
        return v;
    }
    __aicore__ void SetValue(uint32_t index, T value, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) const {
        std::memcpy(::sage::npu::rt::scalarLocal(ref_, uint64_t(index) * sizeof(T), sizeof(T), true, loc), &value,
                    sizeof(T));
    }
    // tensor(i): element access through the scalar unit, as GetValue/SetValue.
    struct ElementRef {
        const LocalTensor* t;
        uint32_t index;
        ::sage::npu::Loc loc;
        operator T() const { return t->GetValue(index, loc); }
        ElementRef& operator=(T v) {
            t->SetValue(index, v, loc);
            return *this;
        }
        ElementRef& operator=(const ElementRef& o) { return *this = T(o); }
        // t(i) += v and friends: a scalar read, the arithmetic, a scalar write.
        ElementRef& operator+=(T v) { return *this = T(T(*this) + v); }
        ElementRef& operator-=(T v) { return *this = T(T(*this) - v); }
        ElementRef& operator*=(T v) { return *this = T(T(*this) * v); }
        ElementRef& operator/=(T v) { return *this = T(T(*this) / v); }
    };
    __aicore__ ElementRef operator()(uint32_t index, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) const {
        return ElementRef{this, index, loc};
    }
    __aicore__ uint32_t GetSize() const { return ref_.bytes / static_cast<uint32_t>(sizeof(T)); }
    __aicore__ uint32_t GetLength() const { return ref_.bytes; }
    __aicore__ void SetSize(uint32_t size) { ref_.bytes = size * static_cast<uint32_t>(sizeof(T)); }
    __aicore__ ::sage::npu::Pos GetPosition() const { return ref_.pos; }
    __aicore__ uint64_t GetPhyAddr() const { return ref_.addr; }
    template <typename U> __aicore__ LocalTensor<U> ReinterpretCast() const { return LocalTensor<U>(ref_); }
    template <typename U> __aicore__ void SetAddrWithOffset(const LocalTensor<U>& src, uint32_t offset) {
        ref_ = src.ref();
        ref_.addr += offset * sizeof(U);
        ref_.bytes = src.ref().bytes > offset * sizeof(U) ? src.ref().bytes - offset * uint32_t(sizeof(U)) : 0;
    }
    __aicore__ LocalTensor& operator=(const LocalTensorExpr<T>& e);
    // `bits = a < b;` (the comparison operators, kernel_vec_mask_forms.h).
    template <typename E>
        requires requires(const E& e, const LocalTensor& t) { e.into(t, ::sage::npu::Loc::current()); }
    __aicore__ LocalTensor& operator=(const E& e) {
        e.into(*this, ::sage::npu::Loc::current());
        return *this;
    }

    const ::sage::npu::LocalRef& ref() const { return ref_; }

private:
    ::sage::npu::LocalRef ref_{};
};

template <typename T> LocalTensorExpr<T> operator+(const LocalTensor<T>& a, const LocalTensor<T>& b) {
    return {::sage::npu::VecOp::Add, &a, &b};
}
template <typename T> LocalTensorExpr<T> operator-(const LocalTensor<T>& a, const LocalTensor<T>& b) {
    return {::sage::npu::VecOp::Sub, &a, &b};
}
template <typename T> LocalTensorExpr<T> operator*(const LocalTensor<T>& a, const LocalTensor<T>& b) {
    return {::sage::npu::VecOp::Mul, &a, &b};
}
template <typename T> LocalTensorExpr<T> operator/(const LocalTensor<T>& a, const LocalTensor<T>& b) {
    return {::sage::npu::VecOp::Div, &a, &b};
}
template <typename T> LocalTensorExpr<T> operator|(const LocalTensor<T>& a, const LocalTensor<T>& b) {
    return {::sage::npu::VecOp::Or, &a, &b};
}
template <typename T> LocalTensorExpr<T> operator&(const LocalTensor<T>& a, const LocalTensor<T>& b) {
    return {::sage::npu::VecOp::And, &a, &b};
}

template <typename T> LocalTensor<T>& LocalTensor<T>::operator=(const LocalTensorExpr<T>& e) {
    uint64_t n = GetSize();
    ::sage::npu::rt::vecCount(e.op, ::sage::npu::dtypeOf<T>, ref_, e.a->ref(), &e.b->ref(), 0.0, n,
                              ::sage::npu::Loc::current());
    return *this;
}

} // namespace AscendC
