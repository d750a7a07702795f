// compute.window: the geometry of a sliding-window spec (convolution, transposed convolution,
// pooling). Only names and forms are checked here; the values of attrs are the draft's to check
// against the tensors' shapes.
#include "sage_eval/ComputeSpec.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace sage::eval {
using nlohmann::json;

namespace {

[[noreturn]] void bad(const std::string& field, const std::string& what) {
    throw std::invalid_argument("field '" + field + "': " + what);
}

bool isConvOp(const std::string& op) { return op == "conv" || op == "conv_transpose"; }

// An attr name or a non-negative integer, as text.
std::string geometryValue(const json& v, const std::string& field, const std::set<std::string>& attrs) {
    if (v.is_number_integer() && v.get<long long>() >= 0) return std::to_string(v.get<long long>());
    if (v.is_string()) {
        std::string s = v.get<std::string>();
        if (attrs.count(s)) return s;
        bad(field, "'" + s + "' is not an attr of the task (give an attr name or a non-negative integer)");
    }
    bad(field, "must be an attr name or a non-negative integer, got " + v.dump());
}

std::vector<std::string> geometryList(const json& w, const char* key, size_t axes, const std::string& def,
                                      const std::set<std::string>& attrs) {
    const std::string field = std::string("compute.window.") + key;
    if (!w.contains(key)) return std::vector<std::string>(axes, def);
    const json& v = w[key];
    if (!v.is_array() || v.size() != axes)
        bad(field, "must be an array of " + std::to_string(axes) + " entries, one per spatial axis (as \"kernel\")");
    std::vector<std::string> out;
    for (size_t i = 0; i < axes; ++i) out.push_back(geometryValue(v[i], field + "[" + std::to_string(i) + "]", attrs));
    return out;
}

std::string tensorName(const json& w, const char* key, const std::set<std::string>& inputs) {
    const std::string field = std::string("compute.window.") + key;
    if (!w[key].is_string()) bad(field, "must name an input of the task");
    std::string n = w[key].get<std::string>();
    if (!inputs.count(n)) bad(field, "'" + n + "' is not an input of the task");
    return n;
}

} // namespace

WindowSpec parseWindowSpec(const json& w, const ComputeSpec::Names& names) {
    if (!w.is_object())
        bad("compute.window", "must be an object: {\"op\": \"conv\", \"input\": \"x\", \"kernel\": [...], ...} (docs/tasks.md)");
    static const std::set<std::string> keys = {"op",       "input",    "weight", "bias",           "kernel",
                                               "stride",   "padding",  "dilation", "output_padding", "groups"};
    for (auto& [k, v] : w.items())
        if (!keys.count(k))
            bad("compute.window." + k,
                "unknown field (op, input, weight, bias, kernel, stride, padding, dilation, output_padding, groups)");
    const std::set<std::string> inputs(names.inputs.begin(), names.inputs.end());
    const std::set<std::string> attrs(names.attrs.begin(), names.attrs.end());
    WindowSpec s;
    if (!w.contains("op") || !w["op"].is_string()) bad("compute.window.op", "must be a string");
    s.op = w["op"].get<std::string>();
    if (!isConvOp(s.op) && s.op != "max_pool" && s.op != "avg_pool")
        bad("compute.window.op", "'" + s.op + "' is not one of conv, conv_transpose, max_pool, avg_pool");
    if (!w.contains("input")) bad("compute.window.input", "missing: name the windowed input");
    s.input = tensorName(w, "input", inputs);
    if (isConvOp(s.op)) {
        if (!w.contains("weight")) bad("compute.window.weight", "missing: a " + s.op + " needs its weight input");
        s.weight = tensorName(w, "weight", inputs);
        if (w.contains("bias")) s.bias = tensorName(w, "bias", inputs);
        if (w.contains("groups")) s.groups = geometryValue(w["groups"], "compute.window.groups", attrs);
    } else {
        for (const char* k : {"weight", "bias", "groups"})
            if (w.contains(k)) bad(std::string("compute.window.") + k, "a pooling window has no " + std::string(k));
    }
    if (s.op != "conv_transpose" && w.contains("output_padding"))
        bad("compute.window.output_padding", "only a conv_transpose has an output padding");
    if (!w.contains("kernel") || !w["kernel"].is_array() || w["kernel"].empty() || w["kernel"].size() > 3)
        bad("compute.window.kernel", "must be an array of 1 to 3 sizes, one per spatial axis (attr names or integers)");
    const size_t axes = w["kernel"].size();
    s.kernel = geometryList(w, "kernel", axes, "1", attrs);
    s.stride = geometryList(w, "stride", axes, "1", attrs);
    s.padding = geometryList(w, "padding", axes, "0", attrs);
    s.dilation = geometryList(w, "dilation", axes, "1", attrs);
    s.outputPadding = geometryList(w, "output_padding", axes, "0", attrs);
    std::set<std::string> used = {s.input, s.weight, s.bias};
    used.erase("");
    if (used.size() != (s.bias.empty() ? 1u : 2u) + (s.weight.empty() ? 0u : 1u))
        bad("compute.window", "input, weight and bias must be three different inputs");
    return s;
}

json WindowSpec::toJson() const {
    json j = {{"op", op}, {"input", input}, {"kernel", kernel}, {"stride", stride}, {"padding", padding},
              {"dilation", dilation}};
    if (!weight.empty()) j["weight"] = weight;
    if (!bias.empty()) j["bias"] = bias;
    if (op == "conv_transpose") j["output_padding"] = outputPadding;
    if (op == "conv" || op == "conv_transpose") j["groups"] = groups;
    return j;
}

} // namespace sage::eval
