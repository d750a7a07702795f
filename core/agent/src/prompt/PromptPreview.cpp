#include "sage_agent/PromptPreview.h"

#include "PromptBuilder.h"

#include "sage_memory/ExperienceStore.h"
#include "sage_npu/DeviceProfile.h"
#include "sage_toolchain/ToolPaths.h"

#include <fstream>
#include <sstream>

namespace sage::agent {
namespace {

size_t lineCount(const std::string& s) { return size_t(std::count(s.begin(), s.end(), '\n')) + 1; }

int lineAt(size_t i, size_t lines) { return int(1 + (i * 7) % std::max<size_t>(lines, 1)); }

eval::Evaluation compileFailure(const eval::Task& t, const std::string& parent) {
    eval::Evaluation ev;
    ev.task = t.name;
    ev.kernel = "kernel.cpp";
    ev.compile.ok = false;
    for (size_t i = 0; i < 10; ++i) {
        toolchain::Diagnostic d;
        d.kind = toolchain::DiagnosticKind::CompileError;
        d.severity = toolchain::Severity::Error;
        d.file = i % 3 == 2 ? "kernel_operator.h" : "kernel.cpp";
        d.line = lineAt(i, lineCount(parent));
        d.column = 9;
        d.message = "no matching function for call to 'DataCopy(AscendC::LocalTensor<float>&, "
                    "AscendC::GlobalTensor<half>&, uint32_t&)'; candidate template ignored: deduced conflicting "
                    "types for parameter 'T' ('float' vs. 'half')";
        d.notes = {{"kernel.cpp", lineAt(i + 3, lineCount(parent)), 5, "in instantiation of function template requested here"},
                   {"kernel_operator.h", 212, 1, "candidate function template not viable: requires 4 arguments, but 3 were provided"}};
        ev.compile.diagnostics.push_back(d);
    }
    return ev;
}

eval::Evaluation wrongResult(const eval::Task& t, const std::string& parent, bool withFailures) {
    eval::Evaluation ev;
    ev.task = t.name;
    ev.kernel = "kernel.cpp";
    ev.compile.ok = true;
    ev.run.status = toolchain::RunStatus::Ok;
    if (withFailures) {
        for (size_t i = 0; i < 8; ++i) {
            toolchain::Diagnostic d;
            d.kind = i % 2 ? toolchain::DiagnosticKind::RaceRaw : toolchain::DiagnosticKind::LocalOutOfBounds;
            d.severity = i < 2 ? toolchain::Severity::Error : toolchain::Severity::Warning;
            d.file = "kernel.cpp";
            d.line = lineAt(i, lineCount(parent));
            d.message = "vector unit reads UB [0x1200, 0x1600) written by MTE2 without a WaitFlag or DeQue between "
                        "them; the value it reads is stale";
            d.notes = {{"kernel.cpp", lineAt(i + 2, lineCount(parent)), 0, "the write happened here"}};
            ev.run.diagnostics.push_back(d);
        }
    }
    ev.verify.ran = true;
    ev.verify.pass = !withFailures;
    for (const auto& c : t.cases)
        for (uint64_t seed : t.seeds) {
            eval::CaseCheck cc{c.name, seed, !withFailures, {}};
            for (const auto& out : t.outputs) {
                eval::OutputCheck oc;
                oc.name = out.name;
                oc.dtype = out.dtype;
                oc.pass = !withFailures;
                oc.checked = 4096;
                if (withFailures) {
                    oc.mismatches = 1234;
                    oc.maxAbsError = 12.5;
                    oc.maxRelError = 3.25;
                    oc.reason = "values differ beyond atol + rtol * |expected| from element 992 on";
                    for (int64_t k = 0; k < 8; ++k) oc.firstMismatches.push_back({{992 + k}, 1.2345678, -0.5, 1.7, 1.4});
                }
                cc.outputs.push_back(oc);
            }
            ev.verify.cases.push_back(cc);
        }
    auto& p = ev.profile;
    p.present = true;
    p.caseName = t.cases.empty() ? "perf" : t.perfCase().name;
    p.totalCycles = 93886;
    p.timeUs = 50.7;
    p.blockDim = 8;
    p.coresUsed = 8;
    p.rooflineCycles = 21000;
    p.rooflineFraction = 0.22;
    p.memoryBound = 1.8;
    p.imbalance = 0.04;
    p.pipeOverlap = 1.3;
    p.bottleneck = "memory_bound";
    p.advice = "MTE2 is busy most of the time and the vector unit waits: double-buffer the input queues and use "
               "larger tiles so that loads overlap compute.";
    p.pipeRatios = {{"mte2_ratio", 0.71}, {"vec_ratio", 0.33}, {"mte3_ratio", 0.21}, {"scalar_ratio", 0.08}};
    for (size_t i = 0; i < 8; ++i) p.lines.push_back({lineAt(i, lineCount(parent)), 400000 - 40000 * i, 512});
    return ev;
}

std::vector<AttemptRecord> history(int n) {
    std::vector<AttemptRecord> h;
    for (int i = 0; i < n; ++i) {
        AttemptRecord a;
        a.iteration = i;
        a.stage = i == 0 ? memory::Stage::Draft : i % 3 == 1 ? memory::Stage::Repair : memory::Stage::Optimize;
        a.parent = i - 1;
        a.move = "Double-buffered the input queues and raised the tile to 4096 elements per block";
        a.status = i % 3 == 1 ? IterationStatus::CompileError : IterationStatus::Ok;
        a.correct = a.status == IterationStatus::Ok;
        a.cycles = a.correct ? uint64_t(120000 - 3000 * i) : 0;
        if (!a.correct)
            a.firstDiagnostic = "compile_error at line 42: no matching function for call to 'DataCopy(LocalTensor<float>&, "
                                "GlobalTensor<half>&, uint32_t&)'";
        a.adoptedIds = {12, 7};
        h.push_back(a);
    }
    return h;
}

} // namespace

std::string readPlatformCard() { return readPlatformCard(toolchain::ToolPaths::fromEnvironment()); }

std::string readPlatformCard(const toolchain::ToolPaths& paths) {
    std::ifstream in(paths.resources + "/../docs/kernel-api.md");
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

PromptPreview previewPrompt(const PromptPreviewRequest& r) {
    PromptPreview out;
    if (!r.task) return out;
    const eval::Task& t = *r.task;
    const std::string parent = t.tunedSource.size() > t.baselineSource.size() ? t.tunedSource : t.baselineSource;

    PolicyContext ctx;
    ctx.task = &t;
    ctx.device = r.device;
    ctx.stage = r.stage;
    ctx.platformCard = r.platformCard;
    ctx.iteration = r.stage == memory::Stage::Draft ? 0 : r.historyLength;
    if (r.stage != memory::Stage::Draft) ctx.history = history(r.historyLength);
    eval::Evaluation ev, best;
    if (r.stage == memory::Stage::Repair) {
        const eval::Evaluation a = compileFailure(t, parent), b = wrongResult(t, parent, true);
        ev = prompt::evaluationSummary(a, parent).size() > prompt::evaluationSummary(b, parent).size() ? a : b;
    } else if (r.stage == memory::Stage::Optimize) {
        ev = wrongResult(t, parent, false);
        best = ev;
        best.profile.totalCycles = 90000;
        ctx.bestEvaluation = &best;
    }
    if (r.stage != memory::Stage::Draft) {
        ctx.parentSource = parent;
        ctx.parentEvaluation = &ev;
    }
    if (r.memory) {
        memory::RetrievalContext rc;
        rc.stage = r.stage;
        rc.category = t.category;
        if (r.device) rc.device = r.device->id;  // entries for another device are not shown, as in a run
        rc.description = t.description;
        rc.limit = r.retrieveLimit;
        if (r.stage == memory::Stage::Repair) rc.diagnostics = {{"compile_error", "no matching function for call"}};
        if (r.stage == memory::Stage::Optimize) rc.bottleneck = "memory_bound";
        ctx.retrieved = r.memory->retrieve(rc);
    }
    const auto parts = prompt::build(ctx, {r.llm.contextTokens, r.llm.maxTokens});
    out.system = parts.system;
    out.user = parts.user;
    out.sizes = parts.layout.toJson();
    out.table = parts.layout.table();
    out.promptTokens = parts.layout.promptTokens;
    out.budgetTokens = parts.layout.budgetTokens;
    out.overflow = parts.layout.overflow;
    return out;
}

} // namespace sage::agent
