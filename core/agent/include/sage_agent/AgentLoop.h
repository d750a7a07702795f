// The SAGE loop: draft -> evaluate -> repair -> optimise, consulting and training the
// adoption-aware memory at every iteration, storing everything it does. It conducts small units
// in src/loop/: StageChooser, Frontier (which candidate optimisation extends), RetrievalStep,
// EvaluationStep, CreditAssigner, LessonDistiller, StopRules, RunJournal (persistence) and
// RunControl (pause/step/edit/cancel).
//
// Control is thread-safe: start() runs the loop on its own thread; pause() takes effect after
// the current step, step() runs one iteration then pauses, resume() continues, cancel() kills an
// in-flight evaluation and aborts an in-flight model request, and submitEdit() (while paused)
// makes the engineer's source the next iteration (origin "human"); the loop continues from it.
// run() executes the same loop on the calling thread (CLI, benchmarks, tests).
#pragma once

#include "sage_agent/AgentEvents.h"
#include "sage_agent/AgentSettings.h"
#include "sage_agent/RewardShuffle.h"
#include "sage_agent/Policy.h"
#include "sage_agent/RunStore.h"
#include "sage_eval/Evaluator.h"
#include "sage_memory/ExperienceStore.h"

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace sage::agent {

struct RunSummary {
    int64_t runId = 0;
    int iterations = 0;
    int firstCorrectIteration = -1;  // -1: never correct
    uint64_t firstCorrectCycles = 0;
    uint64_t bestCycles = 0;
    double bestRooflineFraction = 0;
    double speedupVsFirstCorrect = 0;
    int bestIteration = -1;
    int iterationsToTargetRoofline = -1;  // first iteration reaching 0.8 roofline, -1 if never
    // What bench metrics count (evaluated iterations only; a duplicate is not evaluated again):
    bool draftCorrect = false;  // iteration 0 (the draft, or the engineer's starting kernel) was correct
    int evaluations = 0;        // candidates evaluated
    int repairIterations = 0;   // evaluated repair-stage iterations
    int repairsCorrect = 0;     // ... of which produced a correct kernel
    int compileErrors = 0;      // compile_error or rejected by the source check
    int wrongResults = 0;       // ran, but verification failed
    int runtimeErrors = 0;      // sim_error, timeout, crash, oom, ...
    int policyErrors = 0;       // the policy gave no candidate (HTTP error, broken reply)
    int duplicates = 0;         // proposals of an already evaluated source (not evaluated again)
    AgentRunStatus status = AgentRunStatus::Running;  // when it ends: finished, cancelled, failed or interrupted
    std::string stopReason;
    nlohmann::json toJson() const;   // backward compatible: only adds fields
};

class AgentLoop {
public:
    enum class State { Idle, Running, Paused, Finished };

    // `store` may be null (memory off). The evaluator and the stores must outlive the loop.
    // When the loop runs on its own thread (start()), pass `dbPath` instead of stores: the thread
    // opens its own connection (SQLite connections belong to one thread).
    AgentLoop(const eval::Evaluator& evaluator, std::unique_ptr<Policy> policy, AgentSettings settings);
    ~AgentLoop();

    void addObserver(AgentObserver observer);
    // Iteration 0 evaluates this source (origin "engineer", move "start from <label>") instead of
    // asking the policy for a draft: `sage run --kernel FILE`, the workbench's editor text.
    void setStartCandidate(std::string source, std::string label);
    // The negative control of the learning experiment: memory is credited with shuffled outcomes
    // (RewardShuffle). Null (the default): the real ones.
    void setRewardShuffle(std::shared_ptr<RewardShuffle> shuffle);

    // Runs on the calling thread until the run ends. `memory` may be null.
    RunSummary run(const eval::Task& task, RunStore& runs, memory::ExperienceStore* memory);
    // Runs on a new thread with its own connections to `dbPath`.
    void start(const eval::Task& task, const std::string& dbPath, bool startPaused = false);

    void pause();
    void step();
    void resume();
    void cancel();
    // While paused: the engineer's source becomes the next iteration. False when not paused.
    bool submitEdit(const std::string& source);
    State state() const;
    void wait();                       // until the thread-run ends
    std::optional<RunSummary> summary() const;
    int64_t runId() const { return runId_.load(); }

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
    std::atomic<int64_t> runId_{0};
};

// The one-line reward helpers the loop uses (documented in docs/memory.md).
double stageReward(memory::Stage stage, bool success, double speedup);  // feasibility unless Optimize

std::unique_ptr<Policy> makePolicy(const AgentSettings& settings);  // builtin | llm

// Whether an engineer's kernel text starts a run (setStartCandidate) or the policy drafts: an
// empty text or the task's untouched baseline.cpp (a comparison point, not a draft) drafts.
bool startsFromKernel(const eval::Task& task, const std::string& text);

} // namespace sage::agent
