// The entry `sage op` calls in an op's compiled host program (op_host/<op>.cpp, built with this
// header force-included): sage_op_host_tiling(request) reads the op definition the program
// registered (OP_ADD / IMPL_OP_OPTILING), fills a gert::TilingContext from one case of the op's
// spec (shapes, data types, attributes) and the device profile's platform figures, runs the op's
// TilingFunc and answers what it set: raw tiling bytes, block dim, tiling key, workspace sizes.
// It runs inside the sandboxed runner (mode "host_tiling"); the code around it is the op's own.
//
// Request:  {"op": "<type or empty>", "describe": bool, "platform": {...},
//            "inputs": [{"ir": i, "dtype": "float16", "shape": [..], "present": bool}],
//            "outputs": [{"dtype": .., "shape": [..]}], "attrs": {"name": value}}
// Response: {"ok": bool, "error": "...", "op": {type, inputs, outputs, attrs}, "tiling_hex": "..",
//            "block_dim": n, "tiling_key": n, "workspaces": [..], "workspace_bytes": n}
#pragma once

#include "register/op_def.h"
#include "tiling/platform/platform_ascendc.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <exception>
#include <iostream>  // the CANN host headers bring it; op_host code prints with std::cout unincluded
#include <string>

namespace sage_op_host {

using nlohmann::json;

inline const std::vector<std::pair<std::string, ge::DataType>>& dtypeNames() {
    static const std::vector<std::pair<std::string, ge::DataType>> names = {
        {"float32", ge::DT_FLOAT}, {"float16", ge::DT_FLOAT16}, {"bfloat16", ge::DT_BF16}, {"int8", ge::DT_INT8},
        {"int16", ge::DT_INT16},   {"int32", ge::DT_INT32},     {"int64", ge::DT_INT64},   {"uint8", ge::DT_UINT8},
        {"uint16", ge::DT_UINT16}, {"uint32", ge::DT_UINT32},   {"uint64", ge::DT_UINT64}, {"bool", ge::DT_BOOL},
        {"float64", ge::DT_DOUBLE}, {"complex64", ge::DT_COMPLEX64}};
    return names;
}

inline std::string nameOf(ge::DataType t) {
    for (const auto& [n, d] : dtypeNames())
        if (d == t) return n;
    return "dt" + std::to_string(int(t));
}

inline ge::DataType typeOf(const std::string& name) {
    for (const auto& [n, d] : dtypeNames())
        if (n == name) return d;
    throw std::runtime_error("data type '" + name + "' is not one the host shim knows (float32, float16, bfloat16, "
                             "int8..int64, uint8..uint64, bool, float64, complex64)");
}

inline json describe(const ops::OpDef& def) {
    auto params = [](const std::vector<ops::OpParamDef>& v) {
        json out = json::array();
        for (const auto& p : v) {
            json types = json::array();
            for (auto t : p.types) types.push_back(nameOf(t));
            const char* kind = p.param == ops::OPTIONAL ? "optional" : p.param == ops::DYNAMIC ? "dynamic" : "required";
            out.push_back({{"name", p.name}, {"param", kind}, {"dtypes", types}, {"value_depend", p.valueDepend}});
        }
        return out;
    };
    json attrs = json::array();
    for (const auto& a : def.attrs)
        attrs.push_back({{"name", a.name}, {"type", a.type}, {"default", a.value}, {"required", a.required}});
    // Data types per configuration may be given only in the AICore config (OpAICoreConfig::Input).
    const auto& in = def.inputs.empty() || def.inputs[0].types.empty() ? def.aicore.config.inputs : def.inputs;
    const auto& out = def.outputs.empty() || def.outputs[0].types.empty() ? def.aicore.config.outputs : def.outputs;
    return {{"type", def.type}, {"inputs", params(in.empty() ? def.inputs : in)},
            {"outputs", params(out.empty() ? def.outputs : out)}, {"attrs", attrs}};
}

inline std::vector<std::string> split(const std::string& s) {
    std::vector<std::string> out;
    size_t at = 0;
    while (!s.empty() && at <= s.size()) {
        size_t comma = s.find(',', at);
        out.push_back(s.substr(at, comma == std::string::npos ? std::string::npos : comma - at));
        if (comma == std::string::npos) break;
        at = comma + 1;
    }
    return out;
}

// One attribute, stored the way its definition declares it (GetAttrs()->GetFloat(i) etc.).
inline void setAttr(gert::RuntimeAttrs& attrs, size_t i, const ops::OpAttrDef& a, const json& v) {
    auto num = [&](const json& x) { return x.is_boolean() ? double(x.get<bool>()) : x.is_string() ? std::stod(x.get<std::string>()) : x.get<double>(); };
    if (a.type == "float") attrs.Set<float>(i, float(num(v)));
    else if (a.type == "bool") attrs.Set<bool>(i, num(v) != 0);
    else if (a.type == "int") attrs.Set<int64_t>(i, int64_t(num(v)));
    else if (a.type == "string") attrs.SetStr(i, v.is_string() ? v.get<std::string>() : v.dump());
    else {
        std::vector<double> items;
        if (v.is_array()) for (const auto& x : v) items.push_back(num(x));
        else for (const auto& s : split(v.is_string() ? v.get<std::string>() : v.dump())) items.push_back(std::stod(s));
        // Elements of the declared type: the op casts GetData() to it.
        if (a.type == "list_float") attrs.Set(i, gert::TypedContinuousVector<float>(std::vector<float>(items.begin(), items.end())));
        else if (a.type == "list_bool") {
            std::vector<uint8_t> bools;  // bool's layout, one byte each (std::vector<bool> packs bits)
            for (double d : items) bools.push_back(d != 0);
            attrs.Set(i, gert::TypedContinuousVector<uint8_t>(bools));
        } else {
            std::vector<int64_t> ints;
            for (double d : items) ints.push_back(int64_t(d));
            attrs.Set(i, gert::TypedContinuousVector<int64_t>(ints));
        }
    }
}

inline fe::PlatFormInfos platformOf(const json& p) {
    fe::PlatFormInfos info;
    info.socVersion = p.value("soc", info.socVersion);
    info.aivCores = p.value("aiv_cores", info.aivCores);
    info.aicCores = p.value("aic_cores", info.aicCores);
    info.splitArch = p.value("split", info.splitArch);
    info.ubBytes = p.value("ub", info.ubBytes);
    info.l1Bytes = p.value("l1", info.l1Bytes);
    info.l0aBytes = p.value("l0a", info.l0aBytes);
    info.l0bBytes = p.value("l0b", info.l0bBytes);
    info.l0cBytes = p.value("l0c", info.l0cBytes);
    info.npuArch = p.value("npu_arch", info.npuArch);
    info.res["SoCInfo"]["ai_core_cnt"] = std::to_string(info.aicCores);
    info.res["SoCInfo"]["vector_core_cnt"] = std::to_string(info.aivCores);
    info.res["AICoreSpec"]["ub_size"] = std::to_string(info.ubBytes);
    info.res["AICoreSpec"]["l1_size"] = std::to_string(info.l1Bytes);
    info.res["version"]["NpuArch"] = std::to_string(info.npuArch);
    info.res["version"]["Short_SoC_version"] = info.socVersion.rfind("Ascend910B", 0) == 0 ? "Ascend910B" : info.socVersion;
    return info;
}

inline json run(const json& req) {
    auto& reg = ops::SageOpRegistry::get();
    const std::string want = req.value("op", "");
    std::unique_ptr<ops::OpDef> def;
    std::string known;
    for (const auto& [type, make] : reg.defs) {
        known += (known.empty() ? "" : ", ") + type;
        if (!def && (want.empty() || want == type)) def = make();
    }
    if (!def) {
        if (reg.defs.empty())
            return {{"ok", false}, {"error", "the host program registers no op definition: op_host/<op>.cpp must define "
                                             "a class deriving from OpDef and register it with OP_ADD(<Op>)"}};
        return {{"ok", false}, {"error", "the host program registers no op '" + want + "' (it registers: " + known + ")"}};
    }
    json out = {{"ok", true}, {"op", describe(*def)}};
    if (req.value("describe", false)) return out;
    ops::TilingKernelFunc tiling = def->aicore.tiling;
    if (!tiling && reg.tilings.count(def->type)) tiling = reg.tilings[def->type];
    if (!tiling)
        return {{"ok", false}, {"op", out["op"]},
                {"error", "op '" + def->type + "' registers no tiling function: neither this->AICore().SetTiling(fn) "
                          "nor IMPL_OP_OPTILING(" + def->type + ").Tiling(fn)"}};
    gert::TilingContext ctx;
    ctx.platform = platformOf(req.at("platform"));
    ctx.node.name = def->type.c_str();
    ctx.node.type = def->type.c_str();
    auto tensorOf = [](const json& t) {
        gert::Shape s;
        for (int64_t d : t.at("shape")) s.AppendDim(d);
        gert::CompileTimeTensorDesc desc;
        desc.SetDataType(typeOf(t.at("dtype")));
        return std::make_pair(s, desc);
    };
    size_t lastIr = size_t(-1);
    for (const auto& t : req.at("inputs")) {
        const size_t ir = t.value("ir", ctx.inputShapes.size());
        while (ctx.irStart.size() <= ir && ir != lastIr) ctx.irStart.push_back(ctx.inputShapes.size());
        lastIr = ir;
        auto [s, desc] = tensorOf(t);
        ctx.inputShapes.emplace_back(s);
        ctx.inputDescs.push_back(desc);
        ctx.inputTensors.emplace_back();
        ctx.inputTensors.back().Set(gert::StorageShape(s), desc.GetDataType());
        ctx.inputPresent.push_back(t.value("present", true));
    }
    for (const auto& t : req.at("outputs")) {
        auto [s, desc] = tensorOf(t);
        ctx.outputShapes.emplace_back(s);
        ctx.outputDescs.push_back(desc);
    }
    ctx.node.inputs = ctx.inputShapes.size();
    // Where each input of the definition starts among the instances, and how many it has.
    for (size_t ir = 0; ir < ctx.irStart.size(); ++ir) {
        const size_t end = ir + 1 < ctx.irStart.size() ? ctx.irStart[ir + 1] : ctx.inputShapes.size();
        ctx.node.irInputs.emplace_back(uint32_t(ctx.irStart[ir]), uint32_t(end - ctx.irStart[ir]));
    }
    ctx.node.outputs = ctx.outputShapes.size();
    const json attrs = req.value("attrs", json::object());
    for (size_t i = 0; i < def->attrs.size(); ++i) {
        const auto& a = def->attrs[i];
        if (attrs.contains(a.name)) setAttr(ctx.attrs, i, a, attrs.at(a.name));
        else if (!a.value.empty() || a.type == "string") setAttr(ctx.attrs, i, a, json(a.value));
        else if (a.required)
            return {{"ok", false}, {"op", out["op"]},
                    {"error", "attribute '" + a.name + "' of op '" + def->type +
                                  "' is required and has no default: give it in the case's \"attrs\""}};
    }
    if (auto p = reg.parses.find(def->type); p != reg.parses.end()) {
        gert::TilingParseContext parse;
        parse.platform = ctx.platform;
        parse.node = ctx.node;
        ctx.compileInfo = p->second(parse);
    }
    const uint32_t status = tiling(&ctx);
    if (status != 0)
        return {{"ok", false}, {"op", out["op"]},
                {"error", "the op's tiling function returned " + std::to_string(status) +
                              (status == ge::GRAPH_FAILED ? " (ge::GRAPH_FAILED)" : "") +
                              " for this case: see the host log, and check the case's shapes, data types and "
                              "attributes against what the TilingFunc accepts"}};
    const size_t n = ctx.tiling.GetDataSize();
    static const char* hex = "0123456789abcdef";
    std::string bytes;
    const auto* p = static_cast<const uint8_t*>(ctx.tiling.GetData());
    for (size_t i = 0; i < n && i < ctx.tiling.GetCapacity(); ++i) bytes += {hex[p[i] >> 4], hex[p[i] & 15]};
    uint64_t ws = 0;
    for (size_t w : ctx.workspaces) ws += w;
    out["tiling_hex"] = bytes;
    out["block_dim"] = ctx.blockDim;
    out["tiling_key"] = ctx.tilingKey;
    out["workspaces"] = ctx.workspaces;
    out["workspace_bytes"] = ws;
    return out;
}

} // namespace sage_op_host

// Inline: every translation unit of a host program (each op_host source is one, as in CANN's build)
// force-includes this header, and the linker keeps one copy; `used` makes each unit emit it, so the
// program exports it although nothing in it calls it.
extern "C" inline __attribute__((used, visibility("default"))) const char* sage_op_host_tiling(const char* request) {
    static thread_local std::string answer;
    try {
        answer = sage_op_host::run(nlohmann::json::parse(request)).dump();
    } catch (const std::exception& e) {
        answer = nlohmann::json{{"ok", false}, {"error", std::string("the host tiling failed: ") + e.what()}}.dump();
    }
    std::fflush(stdout);
    return answer.c_str();
}
