// How the runs of one evaluation sum up (RunSummary.h).
#include "RunSummary.h"

#include <set>
#include <tuple>

namespace sage::eval {
using toolchain::RunStatus;

namespace {
int statusRank(RunStatus s) {  // which failure describes an evaluation best
    switch (s) {
    case RunStatus::Ok: return 0;
    case RunStatus::Race: return 1;
    case RunStatus::SimError: return 2;
    case RunStatus::Oom: return 4;
    case RunStatus::Crash: return 5;
    case RunStatus::Timeout: return 6;
    case RunStatus::Cancelled: return 7;
    case RunStatus::SandboxViolation: return 8;
    case RunStatus::UnaccountedOutput:
    case RunStatus::ImpossibleResult: return 9;
    case RunStatus::Error:
    case RunStatus::NotRun:  // the rest: what a sandbox run never ends with
    case RunStatus::Rejected:
    case RunStatus::CompileError:
    case RunStatus::BadInput: break;
    }
    return 3;
}

} // namespace

// Every run with its case and seed; the evaluation's status is the run status that describes it
// best, and the simulator's diagnostics are kept once per (kind, line, severity).
void summariseRuns(RunSection& run, const toolchain::SandboxReport& report,
                   const std::vector<std::pair<std::string, uint64_t>>& keys, double clockMhz) {
    run.networkIsolated = report.networkIsolated;
    run.status = RunStatus::Ok;
    std::set<std::tuple<std::string, int, std::string>> seen;
    for (size_t i = 0; i < report.runs.size(); ++i) {
        const auto& r = report.runs[i];
        uint64_t cycles = 0;
        for (const auto& l : r.launches) cycles += l.totalCycles;
        run.runs.push_back({keys[i].first, keys[i].second, r.status, r.message, r.seconds, clockMhz > 0 ? double(cycles) / clockMhz : 0});
        if (statusRank(r.status) > statusRank(run.status)) {
            run.status = r.status;
            run.message = r.message;
        }
        for (const auto& l : r.launches)
            for (const auto& d : l.diagnostics)
                if (seen.insert({std::string(d.kind.name()), d.line, std::string(toString(d.severity))}).second) run.diagnostics.push_back(d);
    }
}

} // namespace sage::eval
