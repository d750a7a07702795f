// A task: resources/tasks/<name>/ with task.json, reference.cpp, baseline.cpp (and optionally
// tuned.cpp). See docs/tasks.md for the format.
#pragma once

#include "sage_eval/ComputeSpec.h"
#include "sage_toolchain/RunJob.h"

#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace sage::eval {

namespace cannbench {
struct Operator;
}

struct TaskError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct TensorDecl {
    std::string name;
    std::string dtype;
    std::vector<std::string> shape;  // each an integer or an expression of shape symbols
    // An output the op leaves undefined for the task's inputs ("verify": false in task.json, e.g. a
    // fused op's second quantized output when its smooth scale is absent, which the op documents
    // as an invalid output): the kernel gets its buffer, its values are never compared.
    bool verified = true;
};

struct InitSpec {
    std::string dist = "uniform";  // uniform | normal | randint | constant
    double low = -1, high = 1;     // uniform / randint bounds; normal: mean = low, std = high
    double value = 0;              // constant
};

struct TaskCase {
    std::string name;
    std::map<std::string, int64_t> dims;
    bool perf = false;
    int benchCase = -1;  // a CANN Bench task: the index of this case in bench->cases
};

struct Tolerance {
    double atol = 0, rtol = 0;
};

struct Task {
    std::string name, category, description, split;
    std::string dir;
    std::vector<TensorDecl> inputs, outputs;
    std::map<std::string, double> attrs;
    std::vector<TaskCase> cases;
    std::map<std::string, InitSpec> init;
    std::optional<Tolerance> tolerance;  // absent: per-dtype defaults
    // A tolerance per data type ("tolerance": {"int8": {"atol": 1, "rtol": 0}}), before the defaults:
    // CANN Bench lets quantized int8 outputs differ by one step, a rounding tie.
    std::map<std::string, Tolerance> dtypeTolerance;
    std::vector<uint64_t> seeds = {0, 1, 2};
    toolchain::LaunchSpec launch;
    std::string tilingStruct;  // struct name for GET_TILING_DATA when the kernel file has no host side
    ComputeSpec compute;       // what the task computes (task.json "compute"); present = false when absent
    // Why the task has no compute spec (task.json "compute_gap"): what the spec language cannot say
    // yet. Such a task still loads and evaluates with its reference; the built-in policy needs a baseline.
    std::string computeGap;
    // Tensor lists (a CANN Bench foreach operator, view "members"): the dim holding a case's member
    // count (<list input>_count); the draft launches its kernel once per member. Empty otherwise.
    std::string listMembers;
    // Some case draws NaN or infinity (CANN Bench's special-value cases): a draft's max and min row
    // reductions then propagate NaN as PyTorch's do (the vector unit's maximum skips NaN).
    bool specialValues = false;
    std::string referenceSource, baselineSource, tunedSource;  // baseline and tuned may be empty
    std::string taskJsonText;  // for cache keys
    // A CANN Bench operator read in its own layout (CannBench.h): its golden.py is the oracle, each
    // case has its own shapes, dtypes and attributes, and its criterion and scores are CANN Bench's.
    std::shared_ptr<const cannbench::Operator> bench;

    static Task loadDirectory(const std::string& dir);  // throws TaskError "<file>: field '<f>': ..."
    const TaskCase& perfCase() const;
    const TaskCase* findCase(const std::string& name) const;
    Tolerance toleranceFor(const std::string& dtype) const;
    std::vector<int64_t> shapeOf(const TensorDecl& t, const TaskCase& c) const;
    std::vector<toolchain::TensorSpec> tensorsFor(const TaskCase& c) const;
    // Macros force-included before a candidate: DTYPE_<NAME>, SAGE_TILING_TYPE and, when the
    // file does not define it, the tiling struct of the launch spec.
    std::string preludeFor(const std::string& source) const;
};

Tolerance defaultTolerance(const std::string& dtype);
// The largest element count of one tensor a task may declare in any case (2^31).
constexpr int64_t kMaxTensorElements = int64_t(1) << 31;
bool isSupportedDtype(const std::string& dtype);
// The kernel-side C++ type of a dtype (float16 → half, ...), as DTYPE_<NAME> macros spell it.
const std::string& cxxTypeOf(const std::string& dtype);

// All tasks under one or more directories, sorted by name; a bad task is reported, not fatal.
struct TaskSet {
    std::vector<Task> tasks;
    std::vector<std::string> errors;  // one line per rejected task folder
    static TaskSet load(const std::vector<std::string>& dirs);
    const Task* find(const std::string& name) const;
};

} // namespace sage::eval
