// Runs a CANN Bench operator's own golden.py (resources/cann-bench/golden_runner.py) with Debian's
// PyTorch in a confined child process: no network, no home, a read-only view of the operator's
// folder, bounded memory and time. Each (case, seed) gets its inputs, its oracle outputs and its
// same-precision outputs written once into the cache (~/.cache/sage/golden/<key>/), keyed by the
// operator's files, the runner's own files and the case; later evaluations read them back.
#pragma once

#include "sage_eval/CannBench.h"
#include "sage_toolchain/ToolPaths.h"

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace sage::eval {

struct GoldenTensor {
    std::string name, dtype;
    std::vector<int64_t> shape;
    std::string file;        // raw little-endian values
    std::string nativeFile;  // outputs: the same-precision reference ("" when torch had no kernel for it)
};

struct GoldenCase {
    bool ok = false;
    std::string error;  // why the golden failed on this case, with its last traceback line
    std::vector<GoldenTensor> inputs, outputs;
    std::vector<std::string> notes;
    double goldenSeconds = 0;
    bool cached = false;
};

struct GoldenOptions {
    double timeoutSeconds = 1800;         // for one batch of cases
    uint64_t memoryBytes = 16ull << 30;   // the process group's memory (RLIMIT_AS where no cgroup)
    const std::atomic<bool>* cancel = nullptr;
};

// The largest input tensor a case may have for its golden to run (2 GiB); larger cases are skipped.
constexpr uint64_t kMaxGoldenTensorBytes = 2ull << 30;

class GoldenRunner {
public:
    explicit GoldenRunner(toolchain::ToolPaths paths) : paths_(std::move(paths)) {}
    // One GoldenCase per (case, seed) of `runs`, in that order.
    std::vector<GoldenCase> prepare(const cannbench::Operator& op,
                                    const std::vector<std::pair<const cannbench::BenchCase*, uint64_t>>& runs,
                                    const GoldenOptions& options) const;
    // "" when the interpreter ($SAGE_PYTHON, else Debian's /usr/bin/python3) imports torch and yaml;
    // otherwise what is missing and the line that installs it. Checked once per process.
    std::string pythonProblem() const;
    static std::string pythonPath();

private:
    toolchain::ToolPaths paths_;
};

} // namespace sage::eval
