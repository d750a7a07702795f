// The result of one evaluation: compile -> run -> verify -> profile. Serialises to the JSON that
// `sage eval --json` prints (docs/cli.md documents every key).
#pragma once

#include "sage_toolchain/Diagnostic.h"
#include "sage_toolchain/RunJob.h"

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace sage::eval {

struct CompileSection {
    bool ok = false;
    bool cached = false;
    double seconds = 0;
    std::vector<toolchain::Diagnostic> diagnostics;
};

struct CaseRun {
    std::string caseName;
    uint64_t seed = 0;
    toolchain::RunStatus status = toolchain::RunStatus::NotRun;
    std::string message;
    double seconds = 0;
    // Simulated device time of the run's launches (their cycles at the device clock), in microseconds:
    // what a benchmark's per-case score (CANN Bench's HAP) compares against its measured times.
    double deviceUs = 0;
};

struct RunSection {
    toolchain::RunStatus status = toolchain::RunStatus::NotRun;  // the run that describes the evaluation best
    std::string message;
    std::vector<toolchain::Diagnostic> diagnostics;  // simulator diagnostics, deduplicated
    std::vector<CaseRun> runs;
    double seconds = 0;
    bool networkIsolated = false;
};

struct Mismatch {
    std::vector<int64_t> index;
    double expected = 0, actual = 0, absError = 0, relError = 0;
};

struct OutputCheck {
    std::string name;
    std::string dtype;
    bool pass = false;
    std::string reason;  // why it failed, in one sentence
    double maxAbsError = 0, maxRelError = 0;
    uint64_t checked = 0, mismatches = 0;
    double atol = 0, rtol = 0;
    // "cann" when CANN Bench's criterion judged the output (CannCriterion.h): its MERE/MARE and the
    // threshold T (MERE < T, MARE < 10 T); "cann_index" for its index check; "" for atol/rtol.
    std::string criterion;
    double mere = 0, mare = 0, threshold = 0;
    std::vector<Mismatch> firstMismatches;  // at most 32
    std::vector<uint64_t> histogram;        // abs-error decades, see kHistogramEdges
    std::vector<double> errorSample;        // abs error at up to 2048 evenly spaced elements (for plots)
};

struct CaseCheck {
    std::string caseName;
    uint64_t seed = 0;
    bool pass = false;
    std::vector<OutputCheck> outputs;
};

struct VerifySection {
    bool ran = false;
    bool pass = false;
    std::vector<CaseCheck> cases;
};

struct LineCost {
    int line = 0;
    uint64_t cycles = 0;
    uint64_t events = 0;
};

// The profile's figures. ProfileSection adds the timeline launches, which can hold millions of
// events: a stored iteration keeps only this part (Evaluation::withoutTimeline).
struct ProfileSummary {
    bool present = false;
    std::string caseName;
    uint64_t totalCycles = 0;
    double timeUs = 0;
    double clockMhz = 0;
    std::map<std::string, double> pipeRatios;   // vec_ratio, mac_ratio, scalar_ratio, mte1/2/3_ratio, fixpipe_ratio
    std::map<std::string, uint64_t> pipeCycles;  // busy cycles summed over cores
    double memoryBound = 0;
    std::vector<uint64_t> coreCycles;
    double imbalance = 0;
    double pipeOverlap = 0;
    uint64_t rooflineCycles = 0;
    double rooflineFraction = 0;
    std::string bottleneck, advice;
    uint64_t gmBytes = 0;
    uint32_t blockDim = 0, coresUsed = 0;
    std::vector<LineCost> lines;                 // hottest first
};

struct ProfileSection : ProfileSummary {
    std::vector<toolchain::LaunchResult> launches;  // with timeline events
};

struct Evaluation {
    std::string task, device, kernel;
    CompileSection compile;
    RunSection run;
    VerifySection verify;
    ProfileSection profile;
    double seconds = 0;
    std::map<std::string, double> phaseSeconds;  // check, compile, inputs, run, reference, verify, profile
    bool success() const { return compile.ok && run.status == toolchain::RunStatus::Ok && verify.pass; }
    nlohmann::json toJson() const;
    // The inverse of toJson (as the run store keeps it per iteration). Timeline events are not
    // stored, so the profile comes back without launches. Never throws for malformed input.
    static Evaluation fromJson(const nlohmann::json& j);
    // A copy without the profile's timeline launches: what an agent iteration keeps. Everything
    // toJson writes is in it.
    Evaluation withoutTimeline() const;
};

extern const std::vector<double> kHistogramEdges;  // abs error upper edges; last bin: > last edge; then NaN/Inf

} // namespace sage::eval
