// Shared set-up of the transform and repair tests: the real evaluation pipeline, the test tasks
// and kernels under data/transforms, and a helper that runs one policy proposal.
#pragma once

#include "AgentTestSupport.h"
#include "sage_agent/BuiltinPolicy.h"
#include "sage_eval/Evaluator.h"
#include "sage_npu/DeviceProfile.h"

#include <QtTest>

#include <fstream>
#include <sstream>

namespace sage::test {

inline std::string readData(const std::string& name) {
    std::ifstream in(std::string(SAGE_TEST_DATA_DIR) + "/transforms/" + name);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

inline std::string replaced(std::string s, const std::string& from, const std::string& to) {
    auto at = s.find(from);
    if (at != std::string::npos) s.replace(at, from.size(), to);
    return s;
}

struct Pipeline {
    std::unique_ptr<eval::Evaluator> evaluator;
    eval::TaskSet tasks;
    std::unique_ptr<QTemporaryDir> dir;

    void init() {
        dir = std::make_unique<QTemporaryDir>();
        evaluator = evaluatorCachedIn(dir->path());
        tasks = eval::TaskSet::load({std::string(SAGE_TEST_DATA_DIR) + "/transforms/tasks"});
    }
    const eval::Task& task(const char* name) const { return *tasks.find(name); }
    const npu::DeviceProfile& device(const char* id = "ascend910b1-sim") const { return evaluator->devices().get(id); }
    eval::Evaluation evaluate(const char* taskName, const std::string& source, const char* deviceId = "ascend910b1-sim") const {
        eval::EvalRequest req;
        req.source = source;
        req.deviceId = deviceId;
        req.seeds = 1;
        return evaluator->evaluate(task(taskName), req);
    }
    // One proposal of the built-in policy (memory off) for the parent at `stage`.
    // The policy's view of one parent (memory off).
    agent::PolicyContext context(const char* taskName, const std::string& parent, const eval::Evaluation& ev,
                                 memory::Stage stage, const char* deviceId = "ascend910b1-sim",
                                 std::vector<std::string> tried = {}) const {
        agent::PolicyContext ctx;
        ctx.task = &task(taskName);
        ctx.device = &device(deviceId);
        ctx.stage = stage;
        ctx.parentSource = parent;
        ctx.parentEvaluation = &ev;
        ctx.triedMoves = std::move(tried);
        return ctx;
    }
    agent::PolicyProposal propose(const char* taskName, const std::string& parent, const eval::Evaluation& ev,
                                  memory::Stage stage, const char* deviceId = "ascend910b1-sim",
                                  std::vector<std::string> tried = {}) const {
        agent::BuiltinPolicy policy;
        return policy.propose(context(taskName, parent, ev, stage, deviceId, std::move(tried)));
    }
};

inline bool hasKind(const eval::Evaluation& ev, const std::string& kind) {
    for (const auto& d : ev.compile.diagnostics)
        if (d.kind.name() == kind && d.severity == toolchain::Severity::Error) return true;
    for (const auto& d : ev.run.diagnostics)
        if (d.kind.name() == kind) return true;
    return false;
}

} // namespace sage::test
