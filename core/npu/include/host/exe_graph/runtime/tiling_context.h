// The simulator's stand-in for the CANN runtime context a host tiling function receives
// (namespace gert): input/output shapes and descriptors, attributes, the raw tiling buffer,
// block dim, tiling key and workspace sizes. An op's TilingFunc compiles against it unchanged;
// the values come from the case being run (`sage op`, docs/compatibility.md).
#pragma once

#include "graph/types.h"
#include "platform/platform_info.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <type_traits>
#include <string>
#include <vector>

namespace gert {

class Shape {
public:
    Shape() = default;
    Shape(std::initializer_list<int64_t> dims) : dims_(dims) {}
    size_t GetDimNum() const { return dims_.size(); }
    int64_t GetDim(size_t i) const { return i < dims_.size() ? dims_[i] : 0; }
    void SetDimNum(size_t n) { dims_.resize(n); }
    void SetDim(size_t i, int64_t v) {
        if (i < dims_.size()) dims_[i] = v;
    }
    Shape& AppendDim(int64_t v) {
        dims_.push_back(v);
        return *this;
    }
    int64_t GetShapeSize() const {
        int64_t n = 1;
        for (int64_t d : dims_) n *= d;
        return n;
    }
    bool IsScalar() const { return dims_.empty(); }
    int64_t operator[](size_t i) const { return GetDim(i); }
    bool operator==(const Shape& o) const { return dims_ == o.dims_; }
    bool operator!=(const Shape& o) const { return dims_ != o.dims_; }

private:
    std::vector<int64_t> dims_;
};

class StorageShape {
public:
    StorageShape() = default;
    StorageShape(std::initializer_list<int64_t> origin, std::initializer_list<int64_t> storage)
        : origin_(origin), storage_(storage) {}
    explicit StorageShape(const Shape& s) : origin_(s), storage_(s) {}
    const Shape& GetOriginShape() const { return origin_; }
    const Shape& GetStorageShape() const { return storage_; }
    Shape& MutableOriginShape() { return origin_; }
    Shape& MutableStorageShape() { return storage_; }

private:
    Shape origin_, storage_;
};

class CompileTimeTensorDesc {
public:
    ge::DataType GetDataType() const { return dtype_; }
    ge::Format GetOriginFormat() const { return format_; }
    ge::Format GetStorageFormat() const { return format_; }
    void SetDataType(ge::DataType t) { dtype_ = t; }
    void SetFormat(ge::Format f) { format_ = f; }

private:
    ge::DataType dtype_ = ge::DT_FLOAT;
    ge::Format format_ = ge::FORMAT_ND;
};

class Tensor {
public:
    const Shape& GetOriginShape() const { return shape_.GetOriginShape(); }
    const Shape& GetStorageShape() const { return shape_.GetStorageShape(); }
    const StorageShape& GetShape() const { return shape_; }
    ge::DataType GetDataType() const { return dtype_; }
    int64_t GetShapeSize() const { return shape_.GetStorageShape().GetShapeSize(); }
    template <typename T> const T* GetData() const { return reinterpret_cast<const T*>(data_.data()); }
    void Set(const StorageShape& s, ge::DataType t, std::vector<uint8_t> bytes = {}) {
        shape_ = s, dtype_ = t, data_ = std::move(bytes);
    }

private:
    StorageShape shape_;
    ge::DataType dtype_ = ge::DT_FLOAT;
    std::vector<uint8_t> data_;
};

// A list attribute's elements, stored contiguously. Untyped, as CANN's: GetData() is the first
// element's address, which the op casts to the element type its definition declares
// (`static_cast<const bool*>(list->GetData())` for a ListBool); TypedContinuousVector<T> gives it typed.
class ContinuousVector {
public:
    ContinuousVector() = default;
    template <typename T> explicit ContinuousVector(const std::vector<T>& v) : size_(v.size()) {
        static_assert(std::is_trivially_copyable_v<T>, "a list attribute holds plain values");
        bytes_.resize(v.size() * sizeof(T));
        if (!v.empty()) std::memcpy(bytes_.data(), v.data(), bytes_.size());
    }
    size_t GetSize() const { return size_; }
    const void* GetData() const { return bytes_.data(); }

private:
    std::vector<uint8_t> bytes_;
    size_t size_ = 0;
};

template <typename T> class TypedContinuousVector : public ContinuousVector {
public:
    TypedContinuousVector() = default;
    explicit TypedContinuousVector(const std::vector<T>& v) : ContinuousVector(v) {}
    const T* GetData() const { return static_cast<const T*>(ContinuousVector::GetData()); }
};

// Attributes by index, each stored as the type the op definition declared.
class RuntimeAttrs {
public:
    template <typename T> const T* GetAttrPointer(size_t i) const {
        return i < attrs_.size() && attrs_[i] ? static_cast<const T*>(attrs_[i]->get()) : nullptr;
    }
    const int64_t* GetInt(size_t i) const { return GetAttrPointer<int64_t>(i); }
    const float* GetFloat(size_t i) const { return GetAttrPointer<float>(i); }
    const bool* GetBool(size_t i) const { return GetAttrPointer<bool>(i); }
    const char* GetStr(size_t i) const { return GetAttrPointer<char>(i); }
    const TypedContinuousVector<int64_t>* GetListInt(size_t i) const {
        return GetAttrPointer<TypedContinuousVector<int64_t>>(i);
    }
    const TypedContinuousVector<float>* GetListFloat(size_t i) const {
        return GetAttrPointer<TypedContinuousVector<float>>(i);
    }
    size_t GetAttrNum() const { return attrs_.size(); }
    template <typename T> void Set(size_t i, T value) {
        if (attrs_.size() <= i) attrs_.resize(i + 1);
        attrs_[i] = std::make_shared<Holder<T>>(std::move(value));
    }
    void SetStr(size_t i, const std::string& s) {
        if (attrs_.size() <= i) attrs_.resize(i + 1);
        attrs_[i] = std::make_shared<Holder<std::string>>(s, true);
    }

private:
    struct Any {
        virtual ~Any() = default;
        virtual const void* get() const = 0;
    };
    template <typename T> struct Holder : Any {
        T v;
        bool cstr = false;
        explicit Holder(T x, bool s = false) : v(std::move(x)), cstr(s) {}
        const void* get() const override {
            if constexpr (std::is_same_v<T, std::string>) return v.c_str();
            else return &v;
        }
    };
    std::vector<std::shared_ptr<Any>> attrs_;
};

// The raw tiling buffer the tiling function fills (SaveToBuffer) and sizes (SetDataSize).
class TilingData {
public:
    explicit TilingData(size_t capacity = 64 * 1024) : bytes_(capacity) {}
    void* GetData() { return bytes_.data(); }
    const void* GetData() const { return bytes_.data(); }
    size_t GetCapacity() const { return bytes_.size(); }
    size_t GetDataSize() const { return size_; }
    void SetDataSize(size_t n) { size_ = n; }

private:
    std::vector<uint8_t> bytes_;
    size_t size_ = 0;
};

// Where one input of the op definition sits among the node's input instances, and how many it
// has: one for a required input, 0 or 1 for an optional one, the list's length for a dynamic one.
class AnchorInstanceInfo {
public:
    AnchorInstanceInfo() = default;
    AnchorInstanceInfo(uint32_t start, uint32_t count) : start_(start), count_(count) {}
    size_t GetInstanceStart() const { return start_; }
    size_t GetInstanceNum() const { return count_; }

private:
    uint32_t start_ = 0, count_ = 0;
};

struct ComputeNodeInfo {
    const char* name = "";
    const char* type = "";
    size_t inputs = 0, outputs = 0;
    std::vector<AnchorInstanceInfo> irInputs;  // per input of the op definition
    size_t GetInputsNum() const { return inputs; }
    size_t GetOutputsNum() const { return outputs; }
    size_t GetIrInputsNum() const { return irInputs.size(); }
    const AnchorInstanceInfo* GetInputInstanceInfo(size_t ir) const { return ir < irInputs.size() ? &irInputs[ir] : nullptr; }
    const char* GetNodeName() const { return name; }
    const char* GetNodeType() const { return type; }
};

class KernelContext {
public:
    virtual ~KernelContext() = default;
};

// What a TilingFunc sees. The op runner fills the public members for one case, calls the
// function, then reads block dim, tiling key, workspace sizes and the tiling bytes back.
class TilingContext : public KernelContext {
public:
    std::vector<StorageShape> inputShapes, outputShapes;
    std::vector<CompileTimeTensorDesc> inputDescs, outputDescs;
    std::vector<Tensor> inputTensors;
    std::vector<bool> inputPresent;  // optional inputs the case leaves out are false
    // Where each input of the op definition starts among the instances above (a dynamic input
    // holds several); empty: one instance per definition input.
    std::vector<size_t> irStart;
    RuntimeAttrs attrs;
    TilingData tiling;
    std::vector<size_t> workspaces = std::vector<size_t>(8, 0);
    fe::PlatFormInfos platform;
    ComputeNodeInfo node;
    const void* compileInfo = nullptr;
    uint32_t blockDim = 0;
    uint64_t tilingKey = 0;
    uint32_t scheduleMode = 0;

    const StorageShape* GetInputShape(size_t i) const { return present(i) ? &inputShapes[i] : nullptr; }
    const StorageShape* GetOptionalInputShape(size_t i) const { return GetInputShape(instance(i)); }
    const StorageShape* GetDynamicInputShape(size_t i, size_t j) const { return GetInputShape(instance(i) + j); }
    const StorageShape* GetOutputShape(size_t i) const { return i < outputShapes.size() ? &outputShapes[i] : nullptr; }
    const CompileTimeTensorDesc* GetInputDesc(size_t i) const { return present(i) ? &inputDescs[i] : nullptr; }
    const CompileTimeTensorDesc* GetOptionalInputDesc(size_t i) const { return GetInputDesc(instance(i)); }
    const CompileTimeTensorDesc* GetDynamicInputDesc(size_t i, size_t j) const { return GetInputDesc(instance(i) + j); }
    const CompileTimeTensorDesc* GetOutputDesc(size_t i) const {
        return i < outputDescs.size() ? &outputDescs[i] : nullptr;
    }
    const Tensor* GetInputTensor(size_t i) const { return i < inputTensors.size() ? &inputTensors[i] : nullptr; }
    const Tensor* GetOptionalInputTensor(size_t i) const { return GetInputTensor(instance(i)); }
    // By the op definition's input index: a required input's only instance, the j-th of a list.
    const StorageShape* GetRequiredInputShape(size_t ir) const { return GetInputShape(instance(ir)); }
    const CompileTimeTensorDesc* GetRequiredInputDesc(size_t ir) const { return GetInputDesc(instance(ir)); }
    const Tensor* GetRequiredInputTensor(size_t ir) const { return GetInputTensor(instance(ir)); }
    const Tensor* GetDynamicInputTensor(size_t ir, size_t j) const {
        return j < instanceCount(ir) ? GetInputTensor(instance(ir) + j) : nullptr;
    }
    const RuntimeAttrs* GetAttrs() const { return &attrs; }
    TilingData* GetRawTilingData() { return &tiling; }
    // The tiling buffer as the op's tiling struct (CANN's current op repositories declare plain
    // structs instead of BEGIN_TILING_DATA_DEF): zeroed, its size set to sizeof(T); null when the
    // struct does not fit the buffer.
    template <typename T> T* GetTilingData() {
        static_assert(std::is_trivially_copyable_v<T>, "a tiling struct is copied to the device byte by byte");
        if (sizeof(T) > tiling.GetCapacity()) return nullptr;
        if (tiling.GetDataSize() != sizeof(T)) {
            std::memset(tiling.GetData(), 0, sizeof(T));
            tiling.SetDataSize(sizeof(T));
        }
        return static_cast<T*>(tiling.GetData());
    }
    size_t* GetWorkspaceSizes(size_t n) {
        if (workspaces.size() < n) workspaces.resize(n);
        return workspaces.data();
    }
    size_t GetWorkspaceNum() const { return workspaces.size(); }
    // Const, handing out a writable description, as CANN's contexts do (ops-nn's tiling_util.h asks
    // a `const TilingParseContext*`); the context owns it here instead of pointing at it.
    fe::PlatFormInfos* GetPlatformInfo() const { return const_cast<fe::PlatFormInfos*>(&platform); }
    const char* GetNodeName() const { return node.name; }
    const char* GetNodeType() const { return node.type; }
    const ComputeNodeInfo* GetComputeNodeInfo() const { return &node; }
    size_t GetComputeNodeInputNum() const { return inputShapes.size(); }
    size_t GetComputeNodeOutputNum() const { return outputShapes.size(); }
    template <typename T> const T* GetCompileInfo() const { return static_cast<const T*>(compileInfo); }
    const void* GetCompileInfo() const { return compileInfo; }
    ge::graphStatus SetBlockDim(uint32_t d) {
        blockDim = d;
        return ge::GRAPH_SUCCESS;
    }
    uint32_t GetBlockDim() const { return blockDim; }
    ge::graphStatus SetTilingKey(uint64_t k) {
        tilingKey = k;
        return ge::GRAPH_SUCCESS;
    }
    uint64_t GetTilingKey() const { return tilingKey; }
    ge::graphStatus SetScheduleMode(uint32_t m) {
        scheduleMode = m;
        return ge::GRAPH_SUCCESS;
    }
    ge::graphStatus SetNeedAtomic(bool) { return ge::GRAPH_SUCCESS; }

private:
    size_t instance(size_t ir) const { return ir < irStart.size() ? irStart[ir] : ir; }
    size_t instanceCount(size_t ir) const {
        if (ir >= irStart.size()) return ir < inputShapes.size() ? 1 : 0;
        return (ir + 1 < irStart.size() ? irStart[ir + 1] : inputShapes.size()) - irStart[ir];
    }
    bool present(size_t i) const {
        return i < inputShapes.size() && (i >= inputPresent.size() || inputPresent[i]);
    }
};

// What a TilingParse function sees: the compile info object it fills, and the platform.
class TilingParseContext : public KernelContext {
public:
    void* compileInfo = nullptr;
    fe::PlatFormInfos platform;
    ComputeNodeInfo node;
    const char* GetNodeName() const { return node.name; }
    const char* GetNodeType() const { return node.type; }
    template <typename T> T* GetCompiledInfo() { return static_cast<T*>(compileInfo); }
    // Const, handing out a writable description, as CANN's contexts do (ops-nn's tiling_util.h asks
    // a `const TilingParseContext*`); the context owns it here instead of pointing at it.
    fe::PlatFormInfos* GetPlatformInfo() const { return const_cast<fe::PlatFormInfos*>(&platform); }
    const char* GetCompiledJson() const { return "{}"; }
};

// Shape and data-type inference contexts: op definitions name them; `sage op` takes output
// shapes and types from the case, so these only carry the inputs and the node's name.
class InferShapeContext : public KernelContext {
public:
    std::vector<Shape> inputs, outputs;
    RuntimeAttrs attrs;
    ComputeNodeInfo node;
    const Shape* GetInputShape(size_t i) const { return i < inputs.size() ? &inputs[i] : nullptr; }
    const Shape* GetOptionalInputShape(size_t i) const { return GetInputShape(i); }
    Shape* GetOutputShape(size_t i) {
        if (outputs.size() <= i) outputs.resize(i + 1);
        return &outputs[i];
    }
    const RuntimeAttrs* GetAttrs() const { return &attrs; }
    const char* GetNodeName() const { return node.name; }
    const char* GetNodeType() const { return node.type; }
};
class InferDataTypeContext : public KernelContext {
public:
    std::vector<ge::DataType> inputs, outputs;
    ComputeNodeInfo node;
    ge::DataType GetInputDataType(size_t i) const { return i < inputs.size() ? inputs[i] : ge::DT_UNDEFINED; }
    ge::graphStatus SetOutputDataType(size_t i, ge::DataType t) {
        if (outputs.size() <= i) outputs.resize(i + 1, ge::DT_UNDEFINED);
        outputs[i] = t;
        return ge::GRAPH_SUCCESS;
    }
    const char* GetNodeName() const { return node.name; }
    const char* GetNodeType() const { return node.type; }
};

} // namespace gert
