// A CANN Bench operator folder read as it is (docs/cann-bench.md): `proto.yaml` (inputs, outputs,
// attributes, the dtypes each accepts, per-dtype thresholds, custom output checks), `cases.yaml`
// (each case's shapes, dtypes, attributes, value range and note), `golden.py` (the oracle, run by
// GoldenRunner) and the hardware metadata `metadata/<hardware>.json` of the checkout (each case's
// hardware lower bound t_hw_us and CANN's own kernel time baseline_perf_us on that hardware).
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sage::eval::cannbench {

struct ProtoTensor {
    std::string name;
    std::vector<std::string> dtypes;  // the dtypes the operator accepts here
    bool compare = true;              // outputs: false when CANN Bench does not compare it element by element
    nlohmann::json indexGather;       // outputs: the index check ({input, dim_attr, value_reduce, keepdim_attr})
};

struct ProtoAttr {
    std::string name, type;  // type as proto.yaml writes it: int, int64, float, bool, str, list[int], ...
    bool required = false;
    nlohmann::json defaultValue;  // null when none
    // A number or bool: what a kernel reads at run time (ctx.attr), and a compute spec may name.
    bool scalar() const { return type != "str" && type.find("list") == std::string::npos && type.find('[') == std::string::npos; }
};

struct Proto {
    std::string name, category, difficulty, formula, description, schema;
    std::string function;  // the golden's function: the schema's name ("gelu(Tensor x, ...)" -> gelu)
    std::vector<ProtoTensor> inputs, outputs;
    std::vector<ProtoAttr> attrs;
    std::vector<std::pair<std::string, double>> precisionThresholds;  // dtype -> T, overriding the defaults
};

// One case's times on the metadata's hardware, in microseconds.
struct Timing {
    double baselineUs = 0;  // CANN's own kernel (or the chain of kernels the note names)
    double hwUs = 0;        // the hardware lower bound
    // A real measurement, not the stand-in max(10 * t_hw_us, 10 us) CANN Bench writes where it has none.
    // A measured time that equals the stand-in cannot be told apart and counts as derived.
    bool measured = false;
};

struct BenchCase {
    int id = 0;
    nlohmann::json inputShapes;  // per input: a shape, a list of shapes (a tensor list) or null (omitted)
    nlohmann::json dtypes;       // per input: a dtype, a list of dtypes (a tensor list) or null
    nlohmann::json attrs;        // an object; values as cases.yaml writes them (numbers, bools, strings, lists)
    nlohmann::json valueRange;   // [lo, hi] for every input, or one [lo, hi] per input (special floats: numberOf)
    std::string note;
    std::optional<Timing> timing;
    // The bytes of the largest input tensor (shapes x dtype sizes; float32 for a dtype the table lacks).
    uint64_t largestInputBytes() const;
    std::string name() const { return "case" + std::to_string(id); }
};

struct Operator {
    std::string folder;  // the operator's folder name, e.g. "gelu": its task name here
    std::string level;   // the parent folder when it is named levelN, else ""
    std::string dir;
    std::string goldenFile, descMarkdown;
    std::string contentHash;  // of proto.yaml, cases.yaml and golden.py: keys the golden cache
    Proto proto;
    std::vector<BenchCase> cases;
    std::string metadataFile;  // where the timings came from ("" when none was found)
    // The operator's compute spec: sage_spec.json beside its files, else SAGE's own
    // (resources/cann-bench/specs/<folder>.json; docs/cann-bench.md "Compute specs"): what the
    // built-in policy drafts from; null when there is none.
    nlohmann::json draftSpec;
    std::string draftSpecFile;
    double thresholdFor(const std::string& dtype) const;
};

// A case value as a number: numbers, bools (0/1) and YAML's special floats, which the loader keeps
// as {"$float": "inf" | "-inf" | "nan"} (JSON has none); none for anything else.
std::optional<double> numberOf(const nlohmann::json& value);

// The macros that tell a kernel which case variant it is compiled for (EvaluatorGolden.cpp defines
// them, a CANN Bench draft tests them): DTYPE_<TENSOR>_IS_<DTYPE> and ATTR_<NAME>_<VALUE>, each name
// upper-cased with every other character than a letter or digit as '_'.
std::string macroName(const std::string& text);
std::string variantDtypeMacro(const std::string& tensor, const std::string& dtype);
std::string variantAttrMacro(const std::string& attr, const std::string& value);

// CANN Bench's default pass threshold T per dtype (MERE < T and MARE < 10 T): 2^-13 float32,
// 2^-10 float16, 2^-7 bfloat16, 0 (exact) for integers.
double defaultThreshold(const std::string& dtype);

// A folder holding proto.yaml, cases.yaml and golden.py.
bool isOperatorFolder(const std::string& dir);
// Operator folders at `dir` itself or up to three levels below it (tasks/levelN/op), sorted.
std::vector<std::string> operatorFoldersUnder(const std::string& dir);
// A folder in CANN Bench's layout (an operator folder, levelN/ or tasks/ of a checkout) that holds
// no task folder of ours (task.json): its operators are the tasks read from it.
bool holdsOperators(const std::string& dir);
// Throws TaskError("<file>: field '<f>': <what>") for a folder it cannot read.
Operator loadOperator(const std::string& dir, const std::string& hardware = "910b2");

} // namespace sage::eval::cannbench

namespace sage::eval {
struct Task;
}

namespace sage::eval::cannbench {

// The task SAGE evaluates for an operator: Task::bench points at it, one TaskCase per case
// ("case<id>", in cases.yaml's order), one seed, tensors named as proto.yaml names them.
Task toTask(std::shared_ptr<const Operator> op);

// Why the built-in policy cannot draft this operator: the constructs it needs that the compute
// spec cannot state, each named; "" when it drafts.
std::string draftGap(const Operator& op);

// The draft spec's view of the tensors: its dims (flat: n), a tensor's shape over them (flat: [n]),
// and the dims' values in one case (from its input shapes; throws std::invalid_argument for a rule
// the case cannot satisfy).
std::vector<std::string> draftDims(const nlohmann::json& draftSpec);
std::vector<std::string> draftShapeOf(const nlohmann::json& draftSpec, const std::string& tensor);
std::map<std::string, int64_t> draftDimsOf(const Operator& op, const BenchCase& c);

// A draft spec may give each case one of several views ("view_by": "x.last_axis(dim)" and "views":
// {"last": {...}, "inner": {...}}, each a view, shapes, dims and compute): the key of a case's view
// ("" for a spec without views; throws std::invalid_argument for a rule the case cannot satisfy),
// the spec of that view (the whole spec for ""), and the macro SAGE_VIEW_<KEY> a kernel is
// compiled with for it.
std::string viewKeyOf(const Operator& op, const BenchCase& c);
const nlohmann::json& viewSpec(const nlohmann::json& draftSpec, const std::string& key);
std::string viewMacro(const std::string& key);

// One compute spec of an operator's draft spec: the one for `attrValue` of its `by_attr` string
// attribute, or its plain "compute" (attrValue ignored). Null when the spec has none for it.
const nlohmann::json& computeFor(const nlohmann::json& draftSpec, const std::string& attrValue);

} // namespace sage::eval::cannbench
