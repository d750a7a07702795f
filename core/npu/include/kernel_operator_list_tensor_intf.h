// Tensor lists (kernel_operator_list_tensor_intf.h): a dynamic input or output of an op (the
// foreach family, AddN) reaches the kernel as one GM address holding a description of the list:
//   [0]                 byte offset of the pointer table from the start
//   then per tensor     one uint64 whose low 32 bits are its dimension count n, then n extents
//   at the offset       one data pointer (uint64) per tensor
// ListTensorDesc reads that description through the scalar unit (GM reads are checked like any
// other); TensorDesc receives one tensor's shape.
#pragma once

#include "kernel_operator.h"

namespace AscendC {

template <class T> class TensorDesc {
public:
    __aicore__ TensorDesc() = default;
    __aicore__ void SetShapeAddr(uint64_t* shapePtr) { shape_ = shapePtr; }
    __aicore__ uint64_t GetDim() const { return dim_; }
    __aicore__ uint64_t GetIndex() const { return index_; }
    // Extent `offset` of the tensor's shape (0 when no shape address was set or out of range).
    __aicore__ uint64_t GetShape(uint32_t offset) const { return shape_ && offset < dim_ ? shape_[offset] : 0; }
    __aicore__ __gm__ T* GetDataPtr() const { return data_; }
    __aicore__ GlobalTensor<T> GetDataObj() const {
        GlobalTensor<T> g;
        g.SetGlobalBuffer(data_);
        return g;
    }

private:
    friend class ListTensorDesc;
    uint64_t* shape_ = nullptr;
    uint64_t dim_ = 0, index_ = 0;
    __gm__ T* data_ = nullptr;
};

class ListTensorDesc {
public:
    __aicore__ ListTensorDesc() = default;
    __aicore__ ListTensorDesc(__gm__ void* data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff,
                              ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
        Init(data, length, shapeSize, loc);
    }
    // `length` (bytes of the description) and `shapeSize` (pointer count) are checked when given.
    __aicore__ void Init(__gm__ void* data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff,
                         ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
        desc_.SetGlobalBuffer(reinterpret_cast<__gm__ uint64_t*>(data), length == 0xffffffff ? ~0ull : length / 8);
        const uint64_t tableOffset = desc_.GetValue(0, loc);
        ::sage::npu::rt::kernelAssert(tableOffset % 8 == 0 && tableOffset >= 8, "tableOffset % 8 == 0",
                                      "ListTensorDesc: the pointer-table offset is not a multiple of 8 past the header",
                                      loc);
        table_ = uint32_t(tableOffset / 8);
        count_ = 0;
        for (uint64_t at = 1; at < table_; at += 1 + (desc_.GetValue(at, loc) & 0xffffffffu)) ++count_;
        if (shapeSize != 0xffffffff)
            ::sage::npu::rt::kernelAssert(count_ == shapeSize, "GetSize() == shapeSize",
                                          "ListTensorDesc: the description holds another number of tensors than shapeSize",
                                          loc);
    }
    __aicore__ uint32_t GetSize() const { return count_; }
    template <class T> __aicore__ __gm__ T* GetDataPtr(uint32_t index, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
        checkIndex(index, loc);
        return reinterpret_cast<__gm__ T*>(uintptr_t(desc_.GetValue(table_ + index, loc)));
    }
    template <class T> __aicore__ void GetDesc(TensorDesc<T>& desc, uint32_t index,
                                               ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
        checkIndex(index, loc);
        uint64_t at = 1;
        for (uint32_t i = 0; i < index; ++i) at += 1 + (desc_.GetValue(at, loc) & 0xffffffffu);
        desc.dim_ = desc_.GetValue(at, loc) & 0xffffffffu;
        desc.index_ = index;
        if (desc.shape_)
            for (uint64_t d = 0; d < desc.dim_; ++d) desc.shape_[d] = desc_.GetValue(at + 1 + d, loc);
        desc.data_ = GetDataPtr<T>(index, loc);
    }

private:
    __aicore__ void checkIndex(uint32_t index, ::sage::npu::Loc loc) const {
        ::sage::npu::rt::kernelAssert(index < count_, "index < GetSize()",
                                      "ListTensorDesc: tensor index past the end of the list", loc);
    }
    GlobalTensor<uint64_t> desc_;
    uint32_t table_ = 0, count_ = 0;
};

} // namespace AscendC
