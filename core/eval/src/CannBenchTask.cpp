// A CANN Bench operator as the task SAGE evaluates, and why the built-in policy cannot draft it.
#include "sage_eval/CannBench.h"
#include "sage_eval/Task.h"

#include <algorithm>
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

// The names a draft spec's expressions may use: the inputs, outputs, numeric and bool attributes,
// and the flat view's element count n.
ComputeSpec::Names specNames(const Operator& op) {
    ComputeSpec::Names names;
    for (const auto& t : op.proto.inputs) names.inputs.push_back(t.name);
    for (const auto& t : op.proto.outputs) names.outputs.push_back(t.name);
    for (const auto& a : op.proto.attrs)
        if (a.type != "str" && a.type.find("list") == std::string::npos && a.type.find('[') == std::string::npos)
            names.attrs.push_back(a.name);
    names.dims = {"n"};
    return names;
}

// Every compute spec of the operator's draft spec, parsed; throws std::invalid_argument naming the field.
std::vector<ComputeSpec> parseDraftSpecs(const Operator& op) {
    const json& spec = op.draftSpec;
    if (!spec.is_object()) throw std::invalid_argument("must be a JSON object");
    if (spec.value("view", "flat") != "flat")
        throw std::invalid_argument("field 'view': only \"flat\" (every tensor as n elements) is drafted so far");
    std::vector<ComputeSpec> out;
    const ComputeSpec::Names names = specNames(op);
    if (spec.contains("by_attr")) {
        const json& values = spec.value("compute_by_value", json::object());
        if (!spec["by_attr"].is_string() || !values.is_object() || values.empty())
            throw std::invalid_argument("field 'by_attr' needs 'compute_by_value': {value: compute spec, ...}");
        for (const auto& [value, c] : values.items()) out.push_back(ComputeSpec::parse(c, names));
    } else {
        out.push_back(ComputeSpec::parse(spec.value("compute", json()), names));
    }
    for (const auto& c : out)
        if (c.kind != "elementwise") throw std::invalid_argument("field 'compute.kind': the flat view drafts elementwise specs only");
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

} // namespace

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
    t.description = op->proto.description + (op->proto.formula.empty() ? "" : "\nformula: " + op->proto.formula) +
                    (op->descMarkdown.empty() ? "" : "\n\n" + op->descMarkdown);
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
        // The flat view: every tensor is n elements, n the case's element count.
        t.compute = parseDraftSpecs(*op).front();
        for (auto* list : {&t.inputs, &t.outputs})
            for (auto& d : *list) d.shape = {"n"};
        for (const auto& a : op->proto.attrs)
            if (a.type != "str" && a.type.find("list") == std::string::npos && a.type.find('[') == std::string::npos)
                t.attrs[a.name] = a.defaultValue.is_number() ? a.defaultValue.get<double>() : a.defaultValue.is_boolean() ? double(a.defaultValue.get<bool>()) : 0.0;
        for (auto& c : t.cases) {
            int64_t n = 1;
            const json& first = op->cases[size_t(c.benchCase)].inputShapes.empty() ? json() : op->cases[size_t(c.benchCase)].inputShapes[0];
            for (const auto& d : first.is_array() ? first : json::array()) n *= d.is_number_integer() ? d.get<int64_t>() : 1;
            c.dims["n"] = n;
        }
    }
    t.taskJsonText = op->contentHash;
    t.bench = std::move(op);
    return t;
}

} // namespace sage::eval::cannbench
