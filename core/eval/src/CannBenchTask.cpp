// A CANN Bench operator as the task SAGE evaluates, and why the built-in policy cannot draft it.
#include "sage_eval/CannBench.h"
#include "sage_eval/Task.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <regex>
#include <set>

namespace sage::eval::cannbench {
using nlohmann::json;

namespace {

bool isShapeList(const json& s) {  // a tensor list: a list of shapes
    return s.is_array() && !s.empty() && s[0].is_array();
}

// Dtypes the simulated device's kernels handle today.
bool kernelDtype(const std::string& d) {
    return d == "float16" || d == "bfloat16" || d == "float32" || d == "int32" || d == "int8";
}

// What each CANN Bench category asks of the spec language beyond elementwise expressions.
std::string categoryConstruct(const std::string& category) {
    if (category == "SortSelect") return "top-k, sort or arg-reduction";
    if (category == "IndexGather") return "gather by index";
    if (category == "ScatterUpdate") return "scatter by index";
    if (category == "Contraction") return "matmul or convolution in CANN's layouts";
    if (category == "LayoutTransform") return "slicing, transposition or routing views";
    if (category == "FusedComposite" || category == "VVFusion") return "a composition of several constructs";
    if (category == "Normalization") return "row-wise normalisation over the case's axes";
    if (category == "Reduction") return "a reduction over the case's axes";
    if (category == "Broadcast") return "broadcast over several axes";
    if (category == "MaskPredicate") return "a mask input of another element size";
    if (category == "NumericalStable") return "a numerically stable row reduction";
    return "";
}

// A case's attribute, or proto.yaml's default when the case leaves it out (null when neither has it).
json caseAttr(const Operator& op, const BenchCase& c, const std::string& attr) {
    json a = c.attrs.value(attr, json());
    for (const auto& p : op.proto.attrs)
        if (a.is_null() && p.name == attr) a = p.defaultValue;
    return a;
}

// The axis of a rank-`rank` tensor that the case's integer attribute `attr` names (negative from the
// end; proto.yaml's default when the case leaves it out).
template <typename Bad>
int64_t attrAxis(const Operator& op, const BenchCase& c, const std::string& attr, int64_t rank, const std::string& tensor, Bad bad) {
    const json a = caseAttr(op, c, attr);
    if (!a.is_number_integer()) throw bad("case " + std::to_string(c.id) + " has no integer attribute '" + attr + "'");
    const int64_t at = a.get<int64_t>() < 0 ? rank + a.get<int64_t>() : a.get<int64_t>();
    if (at < 0 || at >= rank) throw bad("case " + std::to_string(c.id) + "'s " + attr + " is outside the axes of '" + tensor + "'");
    return at;
}

// A case's input shape by the input's name; throws bad(...) when it has none.
template <typename Bad>
std::vector<int64_t> inputShape(const Operator& op, const BenchCase& c, const std::string& tensor, Bad bad) {
    size_t index = op.proto.inputs.size();
    for (size_t i = 0; i < op.proto.inputs.size(); ++i)
        if (op.proto.inputs[i].name == tensor) index = i;
    if (index == op.proto.inputs.size()) throw bad("'" + tensor + "' is not an input");
    const json shape = index < c.inputShapes.size() ? c.inputShapes[index] : json();
    if (!shape.is_array() || shape.empty() || !shape[0].is_number_integer()) throw bad("case " + std::to_string(c.id) + " gives '" + tensor + "' no shape");
    std::vector<int64_t> s;
    for (const auto& d : shape) s.push_back(d.get<int64_t>());
    return s;
}

// One dim of a case from a "dims" rule: "<input>.last", "<input>.lead" (all axes but the last,
// multiplied), "<input>.numel" or "<input>.<axis>" (negative from the end).
int64_t dimValue(const Operator& op, const BenchCase& c, const std::string& dim, const json& rule) {
    const std::string r = rule.is_string() ? rule.get<std::string>() : "";
    const size_t dot = r.find('.');
    auto bad = [&](const std::string& why) { return std::invalid_argument("field 'dims." + dim + "': " + why); };
    if (dot == std::string::npos) throw bad("must be \"<input>.last\", \"<input>.lead\", \"<input>.numel\" or \"<input>.<axis>\"");
    const std::string tensor = r.substr(0, dot), what = r.substr(dot + 1);
    const std::vector<int64_t> s = inputShape(op, c, tensor, bad);
    int64_t lead = 1, all = 1;
    for (size_t i = 0; i < s.size(); ++i) {
        all *= s[i];
        if (i + 1 < s.size()) lead *= s[i];
    }
    if (what == "last") return s.back();
    if (what == "lead") return lead;
    if (what == "numel") return all;
    // outer(ATTR), axis(ATTR), inner(ATTR), span(ATTR): the axes before, at, after, and from the one
    // the case's integer attribute ATTR names (negative from the end; proto.yaml's default when the
    // case leaves it out), multiplied.
    static const std::regex around(R"(^(outer|axis|inner|span)\((\w+)\)$)");
    std::smatch m;
    if (std::regex_match(what, m, around)) {
        const int64_t at = attrAxis(op, c, m[2].str(), int64_t(s.size()), tensor, bad);
        int64_t outer = 1, inner = 1;
        for (int64_t i = 0; i < at; ++i) outer *= s[size_t(i)];
        for (size_t i = size_t(at) + 1; i < s.size(); ++i) inner *= s[i];
        return m[1] == "outer" ? outer : m[1] == "axis" ? s[size_t(at)] : m[1] == "inner" ? inner : s[size_t(at)] * inner;
    }
    try {
        const long axis = std::stol(what);
        const long at = axis < 0 ? long(s.size()) + axis : axis;
        if (at >= 0 && at < long(s.size())) return s[size_t(at)];
    } catch (const std::exception&) {
    }
    throw bad("'" + what + "' is not last, lead, numel or an axis of '" + tensor + "'");
}

// Whether some case's value range holds NaN or infinity (YAML's .nan/.inf, or the strings "nan",
// "inf", "-inf" that CANN Bench's cases also write and its data generator reads the same way).
bool drawsSpecialValues(const Operator& op) {
    std::function<bool(const json&)> special = [&](const json& v) {
        if (v.is_array()) return std::any_of(v.begin(), v.end(), special);
        if (v.is_string()) {
            std::string s = v.get<std::string>();
            for (auto& ch : s) ch = char(std::tolower(static_cast<unsigned char>(ch)));
            return s == "nan" || s == "inf" || s == "-inf" || s == "+inf";
        }
        const auto n = numberOf(v);
        return n && !std::isfinite(*n);
    };
    return std::any_of(op.cases.begin(), op.cases.end(), [&](const BenchCase& c) { return special(c.valueRange); });
}

// The first input a case gives as a tensor list; "" when none does.
std::string listInput(const Operator& op) {
    for (const auto& c : op.cases)
        for (size_t i = 0; i < c.inputShapes.size() && i < op.proto.inputs.size(); ++i)
            if (isShapeList(c.inputShapes[i])) return op.proto.inputs[i].name;
    return "";
}

// The names a draft spec's expressions may use: the inputs, outputs, numeric and bool attributes,
// and the flat view's element count n.
ComputeSpec::Names specNames(const Operator& op, const json& spec) {
    ComputeSpec::Names names;
    for (const auto& t : op.proto.inputs) names.inputs.push_back(t.name);
    for (const auto& t : op.proto.outputs) names.outputs.push_back(t.name);
    for (const auto& a : op.proto.attrs)
        if (a.scalar()) names.attrs.push_back(a.name);
    names.dims = draftDims(spec);
    return names;
}

// The compute specs of one view of the draft spec (the whole spec, or one of its "views"), parsed;
// throws std::invalid_argument naming the field.
std::vector<ComputeSpec> parseViewSpecs(const Operator& op, const json& spec) {
    if (!spec.is_object()) throw std::invalid_argument("must be a JSON object");
    const std::string view = spec.value("view", "flat");
    if (view != "flat" && view != "shapes" && view != "members")
        throw std::invalid_argument("field 'view': \"flat\" (every tensor as n elements), \"members\" (every member of the tensor lists "
                                    "as n elements) or \"shapes\" (\"shapes\" and \"dims\" given)");
    if (view == "members" && listInput(op).empty())
        throw std::invalid_argument("field 'view': \"members\" reads tensor lists, and no case gives this operator one");
    if (view == "shapes") {
        if (!spec.contains("shapes") || !spec["shapes"].is_object() || !spec.contains("dims") || !spec["dims"].is_object())
            throw std::invalid_argument("field 'view': \"shapes\" needs 'shapes' ({tensor: [dim, ...]}) and 'dims' ({dim: \"tensor.last\"|...})");
        for (const auto* list : {&op.proto.inputs, &op.proto.outputs})
            for (const auto& t : *list)
                if (!spec["shapes"].contains(t.name)) throw std::invalid_argument("field 'shapes': no shape for tensor '" + t.name + "'");
        for (const auto& [dim, rule] : spec["dims"].items()) dimValue(op, op.cases.front(), dim, rule);  // throws for a bad rule
    }
    std::vector<ComputeSpec> out;
    const ComputeSpec::Names names = specNames(op, spec);
    if (spec.contains("by_attr")) {
        const json& values = spec.value("compute_by_value", json::object());
        if (!spec["by_attr"].is_string() || !values.is_object() || values.empty())
            throw std::invalid_argument("field 'by_attr' needs 'compute_by_value': {value: compute spec, ...}");
        for (const auto& [value, c] : values.items()) out.push_back(ComputeSpec::parse(c, names));
    } else {
        out.push_back(ComputeSpec::parse(spec.value("compute", json()), names));
    }
    for (const auto& c : out)
        if (view != "shapes" && ((c.kind != "elementwise" && c.kind != "reduce_all") || !c.split.empty()))
            throw std::invalid_argument("field 'compute.kind': the " + view + " view drafts elementwise (without split) and reduce_all specs");
    return out;
}

// Every compute spec of the operator's draft spec, of every view; the rule choosing a case's view
// is checked on every case.
std::vector<ComputeSpec> parseDraftSpecs(const Operator& op) {
    const json& spec = op.draftSpec;
    if (!spec.is_object()) throw std::invalid_argument("must be a JSON object");
    if (!spec.contains("view_by") && !spec.contains("views")) return parseViewSpecs(op, spec);
    const json& views = spec.value("views", json());
    if (!spec.contains("view_by") || !views.is_object() || views.empty())
        throw std::invalid_argument("field 'view_by' needs 'views': {key: {view, shapes, dims, compute}, ...}, and 'views' needs 'view_by'");
    std::vector<ComputeSpec> out;
    for (const auto& [key, v] : views.items()) {
        try {
            for (auto& c : parseViewSpecs(op, v)) out.push_back(std::move(c));
        } catch (const std::invalid_argument& e) {
            throw std::invalid_argument("views." + key + ": " + e.what());
        }
    }
    for (const auto& c : op.cases)
        if (const std::string key = viewKeyOf(op, c); !views.contains(key) && !views.contains("*"))
            throw std::invalid_argument("field 'views': no view \"" + key + "\" for case " + std::to_string(c.id));
    return out;
}

std::string draftSpecProblem(const Operator& op) {
    try {
        parseDraftSpecs(op);
        return "";
    } catch (const std::exception& e) {
        return e.what();
    }
}

// How a kernel receives a case, for whoever writes one (an LLM reads the task's description): the
// macros of its variant, its run-time attributes and its shapes.
std::string caseInterface(const Operator& op) {
    std::string tensors, strings, numbers;
    for (const auto* list : {&op.proto.inputs, &op.proto.outputs})
        for (const auto& t : *list) tensors += (tensors.empty() ? "" : ", ") + t.name;
    for (const auto& a : op.proto.attrs) {
        std::string& into = a.type == "str" ? strings : numbers;
        into += (into.empty() ? "" : ", ") + a.name;
    }
    std::string s = "One kernel file serves every case; it is compiled once per case variant. Element types: DTYPE_<TENSOR> (the C++ "
                    "type) and DTYPE_<TENSOR>_IS_<DTYPE> (defined for the case's dtype, e.g. DTYPE_X_IS_FLOAT16) for " + tensors + ".";
    if (!strings.empty()) s += " String attributes (" + strings + "): ATTR_<NAME> (the text) and ATTR_<NAME>_<VALUE>.";
    if (!numbers.empty()) s += " Numeric and bool attributes (" + numbers + "): ctx.attr(\"name\") in SAGE_HOST.";
    s += " Shapes: ctx.shape(tensor, axis), ctx.rank(tensor), ctx.numel(tensor) in SAGE_HOST.";
    if (!listInput(op).empty())
        s += " Tensor lists (inputs and outputs alike) arrive as one tensor per member, <name>_0, <name>_1, ..., with the member "
             "count as ctx.dim(\"<name>_count\") and DTYPE_<NAME> the first member's type.";
    return s;
}

} // namespace

std::string macroName(const std::string& text) {
    std::string s = text;
    for (auto& ch : s) ch = std::isalnum(static_cast<unsigned char>(ch)) ? char(std::toupper(static_cast<unsigned char>(ch))) : '_';
    return s;
}

std::string variantDtypeMacro(const std::string& tensor, const std::string& dtype) {
    return "DTYPE_" + macroName(tensor) + "_IS_" + macroName(dtype);
}

std::string variantAttrMacro(const std::string& attr, const std::string& value) {
    return "ATTR_" + macroName(attr) + "_" + macroName(value);
}

std::string viewKeyOf(const Operator& op, const BenchCase& c) {
    const json& rule = op.draftSpec.is_object() ? op.draftSpec.value("view_by", json()) : json();
    if (rule.is_null()) return "";
    auto bad = [&](const std::string& why) { return std::invalid_argument("field 'view_by': " + why); };
    // "<input>.last_axis(ATTR)": "last" when the case's ATTR names the input's last axis, else "inner".
    // "<ATTR>.value": the case's numeric attribute as text ("2", "1.5", "inf"; proto.yaml's default
    // when the case leaves it out), for a view per value (and "*" for the others).
    static const std::regex lastAxis(R"(^(\w+)\.last_axis\((\w+)\)$)"), value(R"(^(\w+)\.value$)");
    std::smatch m;
    const std::string r = rule.is_string() ? rule.get<std::string>() : "";
    if (std::regex_match(r, m, value)) {
        const auto v = numberOf(caseAttr(op, c, m[1].str()));
        if (!v) throw bad("case " + std::to_string(c.id) + " has no numeric attribute '" + m[1].str() + "'");
        if (std::isnan(*v)) return "nan";
        if (std::isinf(*v)) return *v > 0 ? "inf" : "-inf";
        char text[32];
        std::snprintf(text, sizeof text, "%g", *v);
        return text;
    }
    if (!std::regex_match(r, m, lastAxis)) throw bad("must be \"<input>.last_axis(ATTR)\" or \"<ATTR>.value\"");
    const std::vector<int64_t> s = inputShape(op, c, m[1].str(), bad);
    return attrAxis(op, c, m[2].str(), int64_t(s.size()), m[1].str(), bad) + 1 == int64_t(s.size()) ? "last" : "inner";
}

const json& viewSpec(const json& draftSpec, const std::string& key) {
    if (key.empty() || !draftSpec.is_object()) return draftSpec;
    const auto views = draftSpec.find("views");  // a reference into draftSpec, never a copy
    if (views == draftSpec.end() || !views->is_object()) return draftSpec;
    auto it = views->find(key);
    if (it == views->end()) it = views->find("*");  // the view for every other key
    return it == views->end() ? draftSpec : *it;
}

std::string viewMacro(const std::string& key) { return "SAGE_VIEW_" + macroName(key); }

std::vector<std::string> draftDims(const json& draftSpec) {
    if (draftSpec.value("view", "flat") != "shapes") return {"n"};
    std::vector<std::string> dims;
    const json& rules = draftSpec.contains("dims") ? draftSpec["dims"] : json::object();  // not .value(): items() of a temporary dangles
    if (rules.is_object())
        for (const auto& [d, rule] : rules.items()) dims.push_back(d);
    return dims;
}

std::vector<std::string> draftShapeOf(const json& draftSpec, const std::string& tensor) {
    // flat and members: n elements, unless "shapes" says otherwise (a reduce_all output: ["1"]).
    const bool listed = draftSpec.contains("shapes") && draftSpec["shapes"].is_object() && draftSpec["shapes"].contains(tensor);
    if (draftSpec.value("view", "flat") != "shapes" && !listed) return {"n"};
    std::vector<std::string> shape;
    for (const auto& d : draftSpec["shapes"].value(tensor, json::array()))
        if (d.is_string()) shape.push_back(d);
    return shape;
}

std::map<std::string, int64_t> draftDimsOf(const Operator& op, const BenchCase& c) {
    std::map<std::string, int64_t> dims;
    const json& spec = viewSpec(op.draftSpec, viewKeyOf(op, c));
    if (spec.value("view", "flat") != "shapes") {  // flat: n, the first input's element count
        int64_t n = 1;
        const json first = c.inputShapes.empty() ? json() : c.inputShapes[0];
        for (const auto& d : first.is_array() ? first : json::array()) n *= d.is_number_integer() ? d.get<int64_t>() : 1;
        dims["n"] = n;
        return dims;
    }
    for (const auto& [d, rule] : spec["dims"].items()) dims[d] = dimValue(op, c, d, rule);
    return dims;
}

const json& computeFor(const json& draftSpec, const std::string& attrValue) {
    static const json none;
    if (!draftSpec.is_object()) return none;
    if (!draftSpec.contains("by_attr")) return draftSpec.contains("compute") ? draftSpec["compute"] : none;
    const auto values = draftSpec.find("compute_by_value");  // a reference into draftSpec, never a copy
    if (values == draftSpec.end() || !values->is_object()) return none;
    const auto it = values->find(attrValue);
    return it == values->end() ? none : *it;
}

std::string draftGap(const Operator& op) {
    if (!op.draftSpec.is_null()) {
        const std::string problem = draftSpecProblem(op);
        return problem.empty() ? "" : "its compute spec " + op.draftSpecFile + " cannot be drafted: " + problem;
    }
    std::vector<std::string> needs;
    std::set<std::string> odd;
    bool lists = false, mixed = false;
    for (const auto& c : op.cases) {
        for (const auto& s : c.inputShapes) lists |= isShapeList(s);
        std::set<std::string> seen;
        for (const auto& d : c.dtypes)
            if (d.is_string()) seen.insert(d.get<std::string>());
        mixed |= seen.size() > 1;
    }
    for (const auto* list : {&op.proto.inputs, &op.proto.outputs})
        for (const auto& t : *list)
            for (const auto& d : t.dtypes)
                if (!kernelDtype(d)) odd.insert(d);
    if (lists) needs.push_back("tensor lists");
    for (const auto& a : op.proto.attrs) {
        if (a.type == "str") needs.push_back("a string attribute '" + a.name + "'");
        else if (a.type.find("list") != std::string::npos || a.type.find('[') != std::string::npos)
            needs.push_back("a list attribute '" + a.name + "'");
    }
    if (!odd.empty()) {
        std::string names;
        for (const auto& d : odd) names += (names.empty() ? "" : ", ") + d;
        needs.push_back("dtypes " + names);
    }
    if (mixed) needs.push_back("inputs of different dtypes in one case");
    for (const auto& o : op.proto.outputs)
        if (!o.indexGather.is_null()) needs.push_back("index outputs");
    if (const std::string c = categoryConstruct(op.proto.category); !c.empty()) needs.push_back(c);
    // CANN Bench states an operator by its golden.py; the built-in policy drafts from a compute spec.
    std::string why = "no compute spec (golden.py only)";
    if (!needs.empty()) {
        why += "; needs ";
        for (size_t i = 0; i < needs.size(); ++i) why += (i ? ", " : "") + needs[i];
    }
    return why;
}

Task toTask(std::shared_ptr<const Operator> op) {
    Task t;
    t.name = op->folder;
    t.category = op->proto.category;
    t.description = op->proto.description + (op->proto.formula.empty() ? "" : "\nformula: " + op->proto.formula) + "\n\n" +
                    caseInterface(*op) + (op->descMarkdown.empty() ? "" : "\n\n" + op->descMarkdown);
    t.split = "test";  // a benchmark to measure on, never to learn from
    t.dir = op->dir;
    for (const auto& i : op->proto.inputs)
        t.inputs.push_back({i.name, i.dtypes.empty() ? "float32" : i.dtypes.front(), {"1"}});
    for (const auto& o : op->proto.outputs)
        t.outputs.push_back({o.name, o.dtypes.empty() ? "float32" : o.dtypes.front(), {"1"}});
    for (size_t i = 0; i < op->cases.size(); ++i) {
        TaskCase c;
        c.name = op->cases[i].name();
        c.benchCase = int(i);
        c.perf = i == 0;
        t.cases.push_back(std::move(c));
    }
    t.seeds = {0};
    t.computeGap = draftGap(*op);
    if (!op->draftSpec.is_null() && t.computeGap.empty()) {
        // The view: every tensor as n elements (flat), or the spec's shapes over its dims.
        t.compute = parseDraftSpecs(*op).front();
        const json& first = viewSpec(op->draftSpec, op->cases.empty() ? "" : viewKeyOf(*op, op->cases.front()));
        for (auto* list : {&t.inputs, &t.outputs})
            for (auto& d : *list) d.shape = draftShapeOf(first, d.name);
        for (const auto& a : op->proto.attrs)
            if (a.scalar()) t.attrs[a.name] = numberOf(a.defaultValue).value_or(0.0);
        for (auto& c : t.cases) c.dims = draftDimsOf(*op, op->cases[size_t(c.benchCase)]);
        if (first.value("view", "flat") == "members") t.listMembers = listInput(*op) + "_count";
        t.specialValues = drawsSpecialValues(*op);
    }
    t.taskJsonText = op->contentHash;
    t.bench = std::move(op);
    return t;
}

} // namespace sage::eval::cannbench
