// `sage op PROGRAM.asc`: a single-file AscendC program (kernel and host `main` in one file) run
// as a whole on the simulator. Its source is rewritten (programSourceOf: the `<<<>>>` launch
// calls the simulator, `main` is called by the run's entry) and compiled against the kernel API
// and the ACL runtime shim; main runs in the sandbox like a kernel's host side. The files under
// the program's `input/` folder are staged as the run's inputs (its ReadFile reads them); the
// output files named by `compares` come back and are compared with their golden files.
//
// Verdict: the run ends ok (no simulator error, race, crash or timeout), main returns 0 (a
// program that checks its own result returns non-zero when it fails), every comparison passes
// within the dtype's tolerance, and the program wrote no file that no comparison names (a
// program that writes its result for an outside script to check is verified only by comparing).
#pragma once

#include "sage_eval/Evaluation.h"
#include "sage_eval/Evaluator.h"
#include "sage_toolchain/Diagnostic.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace sage::eval {

// An output file of the program and the golden file it must match, both relative to the
// program's folder, read as `dtype` elements.
struct ProgramCompare {
    std::string output, golden, dtype = "float32";
};
// "output/output.bin=output/golden.bin:float16" (dtype defaults to float32); throws
// std::invalid_argument naming what is wrong.
ProgramCompare parseProgramCompare(const std::string& text);

struct ProgramRunOptions {
    std::string deviceId = toolchain::DeviceCatalog::kDefaultDevice;
    double timeoutSeconds = 60;
    std::vector<ProgramCompare> compares;
    std::optional<double> atol, rtol;  // default: the dtype's (Task defaultTolerance)
};

struct ProgramReport {
    std::string program;              // the file as given
    toolchain::RunStatus status = toolchain::RunStatus::NotRun;  // rejected | compile_error | bad_input | the run's status
    std::string message;
    std::vector<toolchain::Diagnostic> diagnostics;  // policy or compiler errors
    std::vector<std::string> inputs;  // the staged input files (relative to the program's folder)
    int launches = 0;
    uint64_t cycles = 0;              // of all launches
    std::optional<int> exitCode;      // main's return value, when main returned
    int unkeptWrites = 0;             // files it wrote that no compare names (its result goes unchecked)
    std::string console;              // what the program printed (its tail)
    std::vector<OutputCheck> checks;  // one per compare
    bool verified() const;
    nlohmann::json toJson() const;
    std::string toText() const;
};

ProgramReport runProgram(const Evaluator& evaluator, const std::string& programFile, const ProgramRunOptions& options);

} // namespace sage::eval
