// Evaluating a candidate for the loop, and what the loop and the policies read off an evaluation:
// its status word, its failure as retrieval diagnostics, and the compact attempt record.
#pragma once

#include "sage_agent/AgentSettings.h"
#include "sage_agent/Policy.h"
#include "sage_agent/RunStore.h"
#include "sage_eval/Evaluator.h"
#include "sage_memory/RetrievalContext.h"

#include <atomic>
#include <future>

namespace sage::agent {

eval::Evaluation evaluateCandidate(const eval::Evaluator& evaluator, const eval::Task& task, const std::string& source,
                                   const AgentSettings& settings, const std::atomic<bool>* cancel);

// Compiles `source` as evaluateCandidate would, on a second thread, into the compile cache (the
// policy's likely next candidate, compiled on the core this evaluation's compile leaves idle).
// It runs at the lowest CPU priority and stops when *drop becomes true. The returned future must
// be waited for before the evaluator (and *drop) go away.
std::future<void> precompileCandidate(const eval::Evaluator& evaluator, const eval::Task& task, std::string source,
                                      const AgentSettings& settings, const std::atomic<bool>* drop);

// ok | compile_error | rejected | wrong_result | how the run failed (sim_error, timeout, crash, ...)
IterationStatus statusOf(const eval::Evaluation& ev);
// What failed, as diagnostics for retrieval: the simulator's and the compiler's, or wrong_result.
std::vector<memory::Diagnostic> failureOf(const eval::Evaluation& ev);
// The compact record of an evaluated iteration that later policy calls see.
AttemptRecord attemptOf(const IterationRecord& rec, const eval::Evaluation& ev, const std::vector<int64_t>& adopted);
// Fills the evaluation fields of `rec` (evaluation JSON, status, correct, cycles, roofline).
void recordEvaluation(IterationRecord& rec, const eval::Evaluation& ev);

} // namespace sage::agent
