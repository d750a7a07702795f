// Everything the loop stores about a run, and the run's summary as it grows: creates the run
// record, stores each iteration (so it can be replayed), keeps the run's best and first-correct
// iterations current, tallies what bench metrics need, and writes the run's end.
#pragma once

#include "loop/Frontier.h"
#include "sage_agent/AgentLoop.h"
#include "sage_agent/RunStore.h"

namespace sage::agent {

class RunJournal {
public:
    RunJournal(RunStore& runs, RunRecord run);
    int64_t runId() const { return run_.id; }
    const RunRecord& run() const { return run_; }

    // Stores the iteration and counts it in the summary. `frontier` gives the current best.
    void record(const IterationRecord& rec, const Frontier& frontier);
    void finish(AgentRunStatus status, const std::string& stopReason, const Frontier& frontier);
    const RunSummary& summary() const { return sum_; }

private:
    void tally(const IterationRecord& rec);
    RunStore& runs_;
    RunRecord run_;
    RunSummary sum_;
};

} // namespace sage::agent
