// A draft for a CANN Bench operator (Task::bench with a draft spec): one kernel file that serves every
// case. The evaluator compiles a kernel once per case variant (the dtypes the golden gives, the
// value of a string attribute; EvaluatorGolden.cpp), defining DTYPE_<T>_IS_<DTYPE> and
// ATTR_<NAME>_<VALUE>; so the draft is the composer's draft of each variant, each under an #if on
// those macros, as CANN's kernels are one source built once per dtype combination. The variants'
// tunable constants are declared once, above them, at the value every variant can take (the
// smallest), so a knob move changes every variant alike.
#include "draft/BenchVariants.h"

#include "CaseVariants.h"

#include "sage_agent/Tunables.h"
#include "sage_eval/CannBench.h"

#include <algorithm>
#include <map>
#include <regex>
#include <set>
#include <sstream>

namespace sage::agent::draft {
namespace {
using nlohmann::json;

struct Variant {
    std::vector<std::string> inputDtypes;  // per task input
    std::string attrValue;                  // of the by_attr attribute ("" without one)
    std::string viewKey;                    // of the spec's view_by ("" without one)
    bool operator<(const Variant& o) const {
        return std::tie(inputDtypes, attrValue, viewKey) < std::tie(o.inputDtypes, o.attrValue, o.viewKey);
    }
};

// A case's variant.
Variant variantOf(const eval::Task& task, const eval::TaskCase& c, const std::string& byAttr) {
    const auto& bc = task.bench->cases[size_t(c.benchCase)];
    Variant v;
    for (size_t i = 0; i < task.inputs.size(); ++i) {
        const json& d = bc.dtypes.is_array() && !bc.dtypes.empty() ? bc.dtypes[std::min(i, bc.dtypes.size() - 1)] : bc.dtypes;
        v.inputDtypes.push_back(d.is_string() ? d.get<std::string>() : task.inputs[i].dtype);
    }
    if (!byAttr.empty()) {
        const json& a = bc.attrs.value(byAttr, json());
        v.attrValue = a.is_string() ? a.get<std::string>() : "";
    }
    v.viewKey = eval::cannbench::viewKeyOf(*task.bench, bc);
    return v;
}

// The variants the cases need, each with its cases, in a stable order.
std::map<Variant, std::vector<eval::TaskCase>> casesByVariant(const eval::Task& task, const std::string& byAttr) {
    std::map<Variant, std::vector<eval::TaskCase>> out;
    for (const auto& c : task.cases) out[variantOf(task, c, byAttr)].push_back(c);
    return out;
}


// The #if condition of a variant: every input's and output's dtype, and the attribute's value.
std::string guardOf(const eval::Task& variantTask, const std::string& byAttr, const Variant& v) {
    std::string g;
    for (const auto* list : {&variantTask.inputs, &variantTask.outputs})
        for (const auto& d : *list) g += (g.empty() ? "" : " && ") + std::string("defined(") + eval::cannbench::variantDtypeMacro(d.name, d.dtype) + ")";
    if (!byAttr.empty()) g += " && defined(" + eval::cannbench::variantAttrMacro(byAttr, v.attrValue) + ")";
    if (!v.viewKey.empty()) g += " && defined(" + eval::cannbench::viewMacro(v.viewKey) + ")";
    return g;
}

// Removes the annotated tunable declarations of `source` into `knobs` (name -> the declaration's
// line and the smallest value seen), and returns the rest.
std::string hoistTunables(const std::string& source, std::map<std::string, std::pair<std::string, long long>>& knobs) {
    std::set<int> lines;
    for (const auto& t : parseTunables(source)) {
        lines.insert(t.line);
        auto it = knobs.find(t.constant);
        if (it == knobs.end()) {
            std::istringstream in(source);
            std::string line;
            for (int n = 1; std::getline(in, line); ++n)
                if (n == t.line) knobs[t.constant] = {line, t.value};
        } else {
            it->second.second = std::min(it->second.second, t.value);
        }
    }
    std::istringstream in(source);
    std::string line, rest;
    for (int n = 1; std::getline(in, line); ++n)
        if (!lines.count(n)) rest += line + "\n";
    return rest;
}

} // namespace

DraftResult composeBenchDraft(const eval::Task& task, const std::function<DraftResult(const eval::Task&)>& compose) {
    DraftResult out;
    const json& spec = task.bench->draftSpec;
    const std::string byAttr = spec.value("by_attr", "");
    eval::ComputeSpec::Names names;
    for (const auto& t : task.inputs) names.inputs.push_back(t.name);
    for (const auto& t : task.outputs) names.outputs.push_back(t.name);
    for (const auto& [a, value] : task.attrs) names.attrs.push_back(a);
    std::map<std::string, std::pair<std::string, long long>> knobs;
    std::string body, firstMove, firstRationale;
    json action;
    std::set<int64_t> adoptedIds;
    std::map<Variant, std::vector<eval::TaskCase>> variants;
    try {
        variants = casesByVariant(task, byAttr);
    } catch (const std::invalid_argument& e) {
        out.error = task.bench->draftSpecFile + ": " + e.what();
        return out;
    }
    for (const auto& [v, cases] : variants) {
        const json& view = eval::cannbench::viewSpec(spec, v.viewKey);
        names.dims = eval::cannbench::draftDims(view);
        eval::Task vt = task;
        vt.bench = nullptr;  // the composer drafts this variant as a plain task
        vt.cases = cases;    // its own cases only (what the composer checks of them)
        for (auto* list : {&vt.inputs, &vt.outputs})
            for (auto& d : *list) d.shape = eval::cannbench::draftShapeOf(view, d.name);
        for (size_t i = 0; i < vt.inputs.size(); ++i) vt.inputs[i].dtype = v.inputDtypes[i];
        // An output takes the spec's out_dtypes entry, else its first input's dtype (as an
        // elementwise golden's result does).
        const json outDtypes = spec.value("out_dtypes", json::object());
        for (auto& o : vt.outputs)
            o.dtype = outDtypes.contains(o.name) && outDtypes[o.name].is_string() ? outDtypes[o.name].get<std::string>()
                      : v.inputDtypes.empty()                                      ? o.dtype
                                                                                   : v.inputDtypes.front();
        const json& c = eval::cannbench::computeFor(view, v.attrValue);
        if (c.is_null()) {
            out.error = "the compute spec has no entry for " + byAttr + " = \"" + v.attrValue + "\"";
            return out;
        }
        try {
            vt.compute = eval::ComputeSpec::parse(c, names);
        } catch (const std::exception& e) {
            out.error = task.bench->draftSpecFile + ": " + e.what();
            return out;
        }
        DraftResult d = compose(vt);
        if (!d.ok) {
            // The composer names the variant's task.json, which a CANN Bench operator does not have.
            std::string error = d.error;
            if (const std::string prefix = vt.dir + "/task.json: "; error.rfind(prefix, 0) == 0)
                error = task.bench->draftSpecFile + ": " + error.substr(prefix.size());
            out.error = error + " (the variant " + guardOf(vt, byAttr, v) + ")";
            return out;
        }
        body += body.empty() ? "#if " : "#elif ";  // appended piece by piece: GCC 12 warns (-Wrestrict) on "#" + std::string
        body += guardOf(vt, byAttr, v) + "\n" + hoistTunables(d.source, knobs);
        adoptedIds.insert(d.adoptedIds.begin(), d.adoptedIds.end());
        if (firstMove.empty()) {
            firstMove = d.move;
            firstRationale = d.rationale;
            action = d.action;
        }
    }
    std::string head = "// Drafted by sage for CANN Bench operator '" + task.name +
                       "': one source for every case, a variant per dtype combination" +
                       (byAttr.empty() ? std::string() : " and value of '" + byAttr + "'") +
                       " (the evaluation builds each case's variant).\n#include \"kernel_operator.h\"\n";
    for (const auto& [name, decl] : knobs) {  // the declaration with its value set to the smallest
        static const std::regex value(R"(=\s*(-?\d+))");
        std::smatch m;
        std::string line = decl.first;
        if (std::regex_search(line, m, value)) line.replace(size_t(m.position(1)), size_t(m.length(1)), std::to_string(decl.second));
        head += line + "\n";
    }
    out.ok = true;
    out.source = head + CaseVariants::kMarker + "\n" + body + "#else\n#error \"no variant of this draft for the case's dtypes: draft it again for them\"\n#endif\n";
    out.adoptedIds.assign(adoptedIds.begin(), adoptedIds.end());
    out.move = firstMove + " (per case variant)";
    out.rationale = firstRationale + " One source serves every case: a variant per dtype combination" +
                    (byAttr.empty() ? std::string() : " and value of '" + byAttr + "'") + ".";
    out.action = action;
    return out;
}

} // namespace sage::agent::draft
