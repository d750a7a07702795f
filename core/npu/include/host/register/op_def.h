// The simulator's stand-in for the CANN op definition API (namespace ops: OpDef, Input/Output/Attr,
// AICore().SetTiling, OP_ADD) and the tiling registration of op_impl_registry.h
// (IMPL_OP_OPTILING(Op).Tiling(fn)). An op_host/<op>.cpp compiles against it unchanged; its
// static registrations run when `sage op` loads the host program in the sandbox, so the op itself
// says which inputs, outputs and attributes it takes (the kernel's argument order), which data
// types each accepts, and which function computes its tiling (sage_op_host_driver.h reads them).
#pragma once

#include "exe_graph/runtime/tiling_context.h"
#include "graph/types.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace gert {
class TilingContext;
class TilingParseContext;
class InferShapeContext;
class InferDataTypeContext;
class InferShapeRangeContext;
} // namespace gert

namespace ops {

enum Option { IGNORE = 0, OPTIONAL = 1, REQUIRED = 2, DYNAMIC = 3, VIRTUAL = 4 };
enum class DependScope : uint32_t { ALL = 0, TILING = 1, INVALID_SCOPE };
enum class FollowType : uint32_t { ALL = 0, DTYPE = 1, SHAPE = 2, INVALID_TYPE };
enum class ItemFindStatus { ITEM_FIND = 0, ITEM_NOEXIST = 1 };

using TilingKernelFunc = uint32_t (*)(gert::TilingContext*);
using InferShapeKernelFunc = uint32_t (*)(gert::InferShapeContext*);
using InferDataTypeKernelFunc = uint32_t (*)(gert::InferDataTypeContext*);
using InferShapeRangeKernelFunc = uint32_t (*)(gert::InferShapeRangeContext*);

// One input or output: its name, kind (required/optional/dynamic) and the data types it takes.
class OpParamDef {
public:
    explicit OpParamDef(std::string name = "") : name(std::move(name)) {}
    OpParamDef& ParamType(Option o) { return param = o, *this; }
    OpParamDef& DataType(std::vector<ge::DataType> t) { return types = std::move(t), *this; }
    OpParamDef& DataTypeList(std::vector<ge::DataType> t) { return types = std::move(t), *this; }
    OpParamDef& Format(std::vector<ge::Format> f) { return formats = std::move(f), *this; }
    OpParamDef& FormatList(std::vector<ge::Format> f) { return formats = std::move(f), *this; }
    OpParamDef& UnknownShapeFormat(std::vector<ge::Format>) { return *this; }
    OpParamDef& ValueDepend(Option) { return valueDepend = true, *this; }
    OpParamDef& ValueDepend(Option, DependScope) { return valueDepend = true, *this; }
    OpParamDef& IgnoreContiguous() { return *this; }
    OpParamDef& AutoContiguous() { return *this; }
    OpParamDef& Scalar() { return *this; }
    OpParamDef& ScalarList() { return *this; }
    OpParamDef& To(ge::DataType) { return *this; }
    OpParamDef& To(const char*) { return *this; }
    OpParamDef& Version(uint32_t) { return *this; }
    OpParamDef& InitValue(uint64_t) { return *this; }
    OpParamDef& InitValue(float) { return *this; }
    OpParamDef& OutputShapeDependOnCompute() { return *this; }
    OpParamDef& Follow(const char*) { return *this; }
    OpParamDef& Follow(const char*, FollowType) { return *this; }
    OpParamDef& Comment(const char*) { return *this; }

    std::string name;
    Option param = REQUIRED;
    std::vector<ge::DataType> types;
    std::vector<ge::Format> formats;
    bool valueDepend = false;
};

// One attribute: name, optional or required, and its type and default value (as text).
class OpAttrDef {
public:
    explicit OpAttrDef(std::string name = "") : name(std::move(name)) {}
    OpAttrDef& AttrType(Option o) { return required = o == REQUIRED, *this; }
    OpAttrDef& Bool() { return type = "bool", *this; }
    OpAttrDef& Bool(bool v) { return type = "bool", value = v ? "1" : "0", *this; }
    OpAttrDef& Float() { return type = "float", *this; }
    OpAttrDef& Float(float v) { return type = "float", value = std::to_string(v), *this; }
    OpAttrDef& Int() { return type = "int", *this; }
    OpAttrDef& Int(int64_t v) { return type = "int", value = std::to_string(v), *this; }
    OpAttrDef& String() { return type = "string", *this; }
    OpAttrDef& String(const char* v) { return type = "string", value = v ? v : "", *this; }
    OpAttrDef& ListBool() { return type = "list_bool", *this; }
    OpAttrDef& ListBool(std::vector<bool> v) { return type = "list_bool", value = join(v), *this; }
    OpAttrDef& ListFloat() { return type = "list_float", *this; }
    OpAttrDef& ListFloat(std::vector<float> v) { return type = "list_float", value = join(v), *this; }
    OpAttrDef& ListInt() { return type = "list_int", *this; }
    OpAttrDef& ListInt(std::vector<int64_t> v) { return type = "list_int", value = join(v), *this; }
    OpAttrDef& ListListInt(std::vector<std::vector<int64_t>>) { return type = "list_list_int", *this; }
    OpAttrDef& Version(uint32_t) { return *this; }
    OpAttrDef& Comment(const char*) { return *this; }

    std::string name, type = "int", value;  // value: the default, "" when none
    bool required = true;

private:
    template <typename T> static std::string join(const std::vector<T>& v) {
        std::string s;
        for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
        return s;
    }
};

class OpAICoreConfig {
public:
    OpAICoreConfig() = default;
    explicit OpAICoreConfig(const char*) {}
    OpParamDef& Input(const char* n) { return inputs.emplace_back(n); }
    OpParamDef& Output(const char* n) { return outputs.emplace_back(n); }
    OpAICoreConfig& DynamicCompileStaticFlag(bool) { return *this; }
    OpAICoreConfig& DynamicFormatFlag(bool) { return *this; }
    OpAICoreConfig& DynamicRankSupportFlag(bool) { return *this; }
    OpAICoreConfig& DynamicShapeSupportFlag(bool) { return *this; }
    OpAICoreConfig& NeedCheckSupportFlag(bool) { return *this; }
    OpAICoreConfig& PrecisionReduceFlag(bool) { return *this; }
    OpAICoreConfig& ExtendCfgInfo(const char*, const char*) { return *this; }
    std::vector<OpParamDef> inputs, outputs;
};

class OpAICoreDef {
public:
    template <typename F> OpAICoreDef& SetTiling(F f) { return tiling = reinterpret_cast<TilingKernelFunc>(f), *this; }
    template <typename F> OpAICoreDef& SetTilingParse(F) { return *this; }
    template <typename F> OpAICoreDef& SetCheckSupport(F) { return *this; }
    template <typename F> OpAICoreDef& SetOpSelectFormat(F) { return *this; }
    template <typename F> OpAICoreDef& SetOpSupportInfo(F) { return *this; }
    template <typename F> OpAICoreDef& SetOpSpecInfo(F) { return *this; }
    template <typename F> OpAICoreDef& SetParamGeneralize(F) { return *this; }
    OpAICoreDef& AddConfig(const char* soc) { return socs.push_back(soc), *this; }
    OpAICoreDef& AddConfig(const char* soc, OpAICoreConfig& c) {
        socs.push_back(soc);
        config = c;
        return *this;
    }
    TilingKernelFunc tiling = nullptr;
    std::vector<std::string> socs;
    OpAICoreConfig config;
};

class OpMC2Def {
public:
    OpMC2Def& HcclGroup(const char*) { return *this; }
    OpMC2Def& HcclGroup(std::vector<const char*>) { return *this; }
};

class OpDef {
public:
    explicit OpDef(const char* type) : type(type ? type : "") {}
    virtual ~OpDef() = default;
    OpParamDef& Input(const char* n) { return inputs.emplace_back(n); }
    OpParamDef& Output(const char* n) { return outputs.emplace_back(n); }
    OpAttrDef& Attr(const char* n) { return attrs.emplace_back(n); }
    template <typename F> OpDef& SetInferShape(F) { return *this; }
    template <typename F> OpDef& SetInferShapeRange(F) { return *this; }
    template <typename F> OpDef& SetInferDataType(F) { return *this; }
    OpDef& SetFromTensor(const char*) { return *this; }
    OpDef& Comment(const char*) { return *this; }
    OpAICoreDef& AICore() { return aicore; }
    OpMC2Def& MC2() { return mc2; }

    std::string type;
    std::vector<OpParamDef> inputs, outputs;
    std::vector<OpAttrDef> attrs;
    OpAICoreDef aicore;
    OpMC2Def mc2;
};

// What the host program's static registrations leave behind: op definitions (OP_ADD) and
// tiling functions registered by op type (IMPL_OP_OPTILING). One per loaded host program.
struct SageOpRegistry {
    std::vector<std::pair<std::string, std::function<std::unique_ptr<OpDef>()>>> defs;
    std::map<std::string, TilingKernelFunc> tilings;
    // TilingParse<CompileInfo>(fn): makes the compile info the tiling function reads, from the platform.
    std::map<std::string, std::function<void*(gert::TilingParseContext&)>> parses;
    static SageOpRegistry& get() {
        static SageOpRegistry r;
        return r;
    }
};

struct SageOpAdd {
    SageOpAdd(const char* type, std::function<std::unique_ptr<OpDef>()> make) {
        SageOpRegistry::get().defs.emplace_back(type, std::move(make));
    }
};

// IMPL_OP_OPTILING(Op).Tiling(fn).TilingParse<CompileInfo>(parse)
class SageOpImpl {
public:
    explicit SageOpImpl(const char* type) : type_(type) {}
    template <typename F> SageOpImpl& Tiling(F f) {
        SageOpRegistry::get().tilings[type_] = reinterpret_cast<TilingKernelFunc>(f);
        return *this;
    }
    template <typename F> SageOpImpl& Tiling(F f, size_t) { return Tiling(f); }
    template <typename T, typename F> SageOpImpl& TilingParse(F parse) {
        SageOpRegistry::get().parses[type_] = [parse](gert::TilingParseContext& ctx) -> void* {
            auto* info = new T();  // kept for the life of the host program, as the real framework does
            ctx.compileInfo = info;
            parse(&ctx);
            return info;
        };
        return *this;
    }
    template <typename F> SageOpImpl& InferShape(F) { return *this; }
    template <typename F> SageOpImpl& InferDataType(F) { return *this; }
    template <typename F> SageOpImpl& InferShapeRange(F) { return *this; }
    SageOpImpl& InputsDataDependency(std::initializer_list<int32_t>) { return *this; }
    SageOpImpl& TilingInputsDataDependency(std::initializer_list<int32_t>) { return *this; }
    SageOpImpl& PrivateAttr(const char*, int64_t) { return *this; }
    SageOpImpl& PrivateAttr(const char*, float) { return *this; }
    SageOpImpl& PrivateAttr(const char*, const char*) { return *this; }

private:
    std::string type_;
};
// Never freed: the registration lives as long as the host program.
inline SageOpImpl& sageOpImpl(const char* type) { return *new SageOpImpl(type); }

} // namespace ops

#define SAGE_OP_CONCAT_(a, b) a##b
#define SAGE_OP_CONCAT(a, b) SAGE_OP_CONCAT_(a, b)
#define OP_ADD(opType, ...)                                                                                \
    static ::ops::SageOpAdd SAGE_OP_CONCAT(sage_op_add_, opType)(                                          \
        #opType, [] { return std::unique_ptr<::ops::OpDef>(new opType(#opType)); })
#define IMPL_OP_OPTILING(opType)                                                                           \
    [[maybe_unused]] static ::ops::SageOpImpl& SAGE_OP_CONCAT(sage_op_impl_, __COUNTER__) =               \
        ::ops::sageOpImpl(#opType)
#define IMPL_OP(opType) IMPL_OP_OPTILING(opType)
#define IMPL_OP_INFERSHAPE(opType) IMPL_OP_OPTILING(opType)
