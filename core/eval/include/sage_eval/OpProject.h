// `sage op DIR`: run a standard AscendC op project unmodified. Its host program
// (op_host/<op>.cpp: op definition and TilingFunc) is compiled against the simulator's host shim
// (core/npu/include/host) and run per case inside the sandbox; the tiling bytes, block dim,
// tiling key and workspace size it sets launch its op_kernel entry, whose outputs are verified
// against the reference of a small spec (a task folder, docs/tasks.md "Op specs").
#pragma once

#include "sage_eval/Evaluation.h"
#include "sage_eval/Evaluator.h"
#include "sage_eval/Task.h"

#include <nlohmann/json.hpp>

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace sage::eval {

// A problem with the project or the spec: the message says what, where and what to do.
struct OpProjectError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct OpProject {
    std::string dir;                       // the op directory (holds op_host/ and op_kernel/)
    std::string name;                      // its folder name, e.g. "abs"
    std::vector<std::string> hostSources;  // op_host/*.cpp, sorted
    // op_host/arch<NN>/*.cpp by folder (arch22, arch35): one architecture's tiling, compiled with
    // hostSources for a device of that architecture (hostArchDirOf).
    std::map<std::string, std::vector<std::string>> archHostSources;
    // op_host/*_infershape*.cpp: graph-mode shape and data-type inference (IMPL_OP_INFERSHAPE).
    // `sage op` runs the kernel at the shapes the spec gives, so these are not part of the host
    // program; they are compiled on their own and a failure is a note (HostProgram::notes).
    std::vector<std::string> shapeInferenceSources;
    // Ops whose host code this one's needs (DEPENDENCIES in op_host/CMakeLists.txt): their op_host
    // tiling sources are in hostSources and archHostSources after the op's own, their op_host/
    // folders on the host include path.
    std::vector<std::string> dependencyDirs;
    std::string kernelFile;                // op_kernel/<name>.cpp (or the only .cpp there)
    static OpProject open(const std::string& dir);  // throws OpProjectError
};

// One data-type configuration of the op the spec checks (the real build compiles the kernel once
// per configuration): a dtype per tensor name, and attribute values for this configuration.
struct OpConfig {
    std::string name;
    std::map<std::string, std::string> dtypes;
    nlohmann::json attrs = nlohmann::json::object();  // numbers reach the reference; all reach the host
};

// A spec is a task folder (task.json + reference.cpp) with three more fields in task.json:
// "op" (the op type, optional), "configs" (dtype configurations) and "host_attrs" (attributes
// the host needs that are not numbers). Inputs and outputs use the op definition's names.
struct OpSpec {
    Task task;
    std::string op;
    std::vector<OpConfig> configs;  // at least one: the tensors' declared dtypes and "attrs"
    static OpSpec loadDirectory(const std::string& dir);  // throws TaskError / OpProjectError
};

// What the op's own host tiling set for one case of one configuration.
struct HostTilingRun {
    std::string caseName;
    bool ok = false;
    std::string error;
    uint32_t blockDim = 0;
    uint64_t tilingKey = 0, workspaceBytes = 0, tilingBytes = 0;
    nlohmann::json launch;  // what the kernel run receives (RunSpec::extra)
};

struct OpConfigResult {
    OpConfig config;
    std::vector<HostTilingRun> tilings;
    bool hostOk = false;
    Evaluation evaluation;  // compile -> run -> verify -> profile of the kernel, as `sage eval`
};

struct OpRunReport {
    std::string project, spec, op, device;
    bool hostCompiled = false;
    std::vector<toolchain::Diagnostic> hostDiagnostics;
    // What did not stop the run but is worth knowing (shape inference that does not compile).
    std::vector<std::string> notes;
    nlohmann::json opDef;  // inputs, outputs (names, dtypes), attrs as the op registered them
    std::string error;     // the first problem that stopped the run, empty when none
    std::vector<OpConfigResult> configs;
    bool hostTilingRan() const;  // every case of every configuration got a tiling
    bool pass() const;           // and every configuration verified
    nlohmann::json toJson() const;
    std::string toText() const;
};

struct OpRunOptions {
    std::string deviceId = toolchain::DeviceCatalog::kDefaultDevice;
    size_t seeds = 1;
    double timeoutSeconds = 60;
    bool profile = false;
};

class OpRunner {
public:
    explicit OpRunner(const Evaluator& evaluator) : evaluator_(evaluator) {}
    OpRunReport run(const OpProject& project, const OpSpec& spec, const OpRunOptions& options) const;
    // The op definition the host program registers (compiles and runs it in the sandbox).
    nlohmann::json describe(const OpProject& project, const std::string& deviceId, std::string& error) const;

private:
    const Evaluator& evaluator_;
};

// task.json text of a template spec for an op definition (from describe()).
std::string opSpecTemplate(const nlohmann::json& opDef, const std::string& opName);
std::string opReferenceTemplate(const nlohmann::json& opDef);
// The spec for a project under a specs root: <root>/<category>/<op> or <root>/<op>; "" if none.
std::string findOpSpec(const std::string& specsRoot, const std::string& projectDir);
// Where an op project keeps its own spec (`sage op` and `sage op init` default): DIR/sage-spec.
std::string ownOpSpecDir(const std::string& projectDir);

} // namespace sage::eval
