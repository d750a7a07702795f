#include "loop/EvaluationStep.h"

#include "sage_agent/BuiltinPolicy.h"

namespace sage::agent {

using toolchain::RunStatus;
using Kind = toolchain::DiagnosticKind;

namespace {
eval::EvalRequest requestFor(const std::string& source, const AgentSettings& settings) {
    eval::EvalRequest req;
    req.source = source;
    req.kernelName = "kernel.cpp";
    req.deviceId = settings.device;
    req.seeds = settings.seeds;
    req.timeoutSeconds = settings.evalTimeoutSeconds;
    return req;
}
} // namespace

eval::Evaluation evaluateCandidate(const eval::Evaluator& evaluator, const eval::Task& task, const std::string& source,
                                   const AgentSettings& settings, const std::atomic<bool>* cancel) {
    eval::EvalRequest req = requestFor(source, settings);
    req.cancel = cancel;
    return evaluator.evaluate(task, req);
}

std::future<void> precompileCandidate(const eval::Evaluator& evaluator, const eval::Task& task, std::string source,
                                      const AgentSettings& settings, const std::atomic<bool>* drop) {
    eval::EvalRequest req = requestFor(source, settings);
    req.cancel = drop;
    try {
        return std::async(std::launch::async, [&evaluator, &task, req = std::move(req)] {
            evaluator.precompile(task, req);
        });
    } catch (const std::system_error&) {
        return {};  // no thread to spare: the candidate is compiled when (if) it is evaluated
    }
}

std::vector<memory::Diagnostic> failureOf(const eval::Evaluation& ev) {
    std::vector<memory::Diagnostic> out;
    for (const auto& d : ev.compile.diagnostics)
        if (d.severity == toolchain::Severity::Error) out.push_back({std::string(d.kind.name()), d.message});
    for (const auto& d : ev.run.diagnostics)
        if (d.severity == toolchain::Severity::Error) out.push_back({std::string(d.kind.name()), d.message});
    if (ev.compile.ok && ev.run.status == RunStatus::Ok && !ev.verify.pass)
        out.push_back({std::string(Kind::nameOf(Kind::WrongResult)), "verification failed"});
    if (ev.run.status == RunStatus::Timeout || ev.run.status == RunStatus::Crash || ev.run.status == RunStatus::Oom ||
        ev.run.status == RunStatus::UnaccountedOutput || ev.run.status == RunStatus::ImpossibleResult)
        out.push_back({std::string(toString(ev.run.status)), ev.run.message});
    return out;
}

IterationStatus statusOf(const eval::Evaluation& ev) {
    if (!ev.compile.ok) return ev.run.status == RunStatus::Rejected ? IterationStatus::Rejected : IterationStatus::CompileError;
    if (ev.run.status != RunStatus::Ok) return iterationStatusOf(ev.run.status);
    return ev.verify.pass ? IterationStatus::Ok : IterationStatus::WrongResult;
}

AttemptRecord attemptOf(const IterationRecord& rec, const eval::Evaluation& ev, const std::vector<int64_t>& adopted) {
    AttemptRecord a;
    a.iteration = rec.index;
    a.stage = rec.stage;
    a.parent = rec.parent;
    a.move = rec.move;
    a.status = rec.status;
    a.correct = rec.correct;
    a.cycles = ev.run.status == RunStatus::Ok ? ev.profile.totalCycles : 0;
    auto describe = [](const toolchain::Diagnostic& d) {
        return std::string(d.kind.name()) + (d.line > 0 ? " at line " + std::to_string(d.line) : std::string()) + ": " + d.message;
    };
    for (const auto* list : {&ev.compile.diagnostics, &ev.run.diagnostics})
        for (const auto& d : *list)
            if (a.firstDiagnostic.empty() && d.severity == toolchain::Severity::Error) a.firstDiagnostic = describe(d);
    if (a.firstDiagnostic.empty() && ev.run.status == RunStatus::Ok && !ev.verify.pass) a.firstDiagnostic = "wrong_result: verification failed";
    a.adoptedIds = adopted;
    a.sourceKey = sourceKey(rec.source);
    return a;
}

void recordEvaluation(IterationRecord& rec, const eval::Evaluation& ev) {
    rec.evaluation = ev.withoutTimeline();
    rec.status = statusOf(ev);
    rec.correct = ev.success();
    rec.cycles = ev.profile.totalCycles;
    rec.rooflineFraction = ev.profile.rooflineFraction;
}

} // namespace sage::agent
