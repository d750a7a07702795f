#include "PromptBuilder.h"

#include "SourceDiff.h"

#include "sage_memory/ExperienceFields.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <sstream>

namespace sage::agent::prompt {
namespace {

constexpr size_t kMaxCompileDiagnostics = 8;
constexpr size_t kMaxSimDiagnostics = 6;
constexpr size_t kMaxFailedChecks = 3;
constexpr size_t kMaxMismatches = 5;
constexpr size_t kHotLines = 5;

std::string fmt(double v, int precision = 3) {
    if (!std::isfinite(v)) return std::isnan(v) ? "NaN" : (v > 0 ? "Inf" : "-Inf");
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*g", precision, v);
    return buf;
}

std::string percent(double ratio) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f%%", ratio * 100);
    return buf;
}

std::vector<std::string> splitLines(const std::string& s) {
    std::vector<std::string> lines;
    std::string line;
    std::istringstream in(s);
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        lines.push_back(line);
    }
    return lines;
}

std::string trim(const std::string& s) {
    size_t b = s.find_first_not_of(" \t\r\n"), e = s.find_last_not_of(" \t\r\n");
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

std::string lineText(const std::vector<std::string>& lines, int line) {
    if (line < 1 || size_t(line) > lines.size()) return {};
    return trim(lines[size_t(line) - 1]);
}

std::string where(const toolchain::Diagnostic& d) {
    std::string s = d.file.empty() ? std::string("kernel.cpp") : d.file;
    if (d.line > 0) s += ":" + std::to_string(d.line);
    if (d.column > 0) s += ":" + std::to_string(d.column);
    return s;
}

std::string shapeText(const std::vector<std::string>& shape) {
    std::string s = "[";
    for (size_t i = 0; i < shape.size(); ++i) {
        if (i) s += ", ";
        s += shape[i];
    }
    return s + "]";
}

std::string indexText(const std::vector<int64_t>& index) {
    std::string s = "[";
    for (size_t i = 0; i < index.size(); ++i) {
        if (i) s += ",";
        s += std::to_string(index[i]);
    }
    return s + "]";
}

std::string stageName(memory::Stage s) { return std::string(memory::toString(s)); }

void appendTask(std::ostringstream& o, const eval::Task& t) {
    o << "## Task: " << t.name;
    if (!t.category.empty()) o << " (category: " << t.category << ")";
    o << "\n\n" << trim(t.description) << "\n\n";
    o << "Inputs:\n";
    for (const auto& x : t.inputs) o << "- " << x.name << ": " << x.dtype << " " << shapeText(x.shape) << "\n";
    o << "Outputs:\n";
    for (const auto& x : t.outputs) o << "- " << x.name << ": " << x.dtype << " " << shapeText(x.shape) << "\n";
    if (!t.attrs.empty()) {
        o << "Scalar attributes (ctx.attr(name) on the host side):";
        for (const auto& [k, v] : t.attrs) o << " " << k << " = " << fmt(v, 6) << ";";
        o << "\n";
    }
    o << "Cases (every case is verified; the perf case is timed):\n";
    for (const auto& c : t.cases) {
        o << "- " << c.name << ":";
        for (const auto& [k, v] : c.dims) o << " " << k << " = " << v;
        if (c.perf) o << " (perf)";
        o << "\n";
    }
    std::vector<std::string> dtypes;
    for (const auto* list : {&t.inputs, &t.outputs})
        for (const auto& x : *list)
            if (std::find(dtypes.begin(), dtypes.end(), x.dtype) == dtypes.end()) dtypes.push_back(x.dtype);
    o << "Tolerance:";
    for (const auto& d : dtypes) {
        auto tol = t.toleranceFor(d);
        o << " " << d << " atol " << fmt(tol.atol) << ", rtol " << fmt(tol.rtol) << ";";
    }
    o << "\n";
    if (t.launch.present) {
        o << "Launch spec (used when the file has no SAGE_HOST): entry `" << t.launch.entry << "(";
        for (size_t i = 0; i < t.launch.args.size(); ++i) o << (i ? ", " : "") << t.launch.args[i];
        o << ")`, blockDim " << t.launch.blockDim;
        if (!t.launch.tiling.empty()) {
            o << ", tiling struct " << (t.tilingStruct.empty() ? std::string("TilingData") : t.tilingStruct) << " {";
            for (size_t i = 0; i < t.launch.tiling.size(); ++i) {
                std::string name = i < t.launch.tilingNames.size() ? t.launch.tilingNames[i] : "f" + std::to_string(i);
                o << (i ? "; " : " ") << t.launch.tiling[i].first << " " << name << " = " << t.launch.tiling[i].second;
            }
            o << " }";
        }
        o << ". A file with its own SAGE_HOST chooses blockDim and tiling itself.\n";
    }
    if (!t.referenceSource.empty())
        o << "\nReference semantics (plain C++, runs on the host):\n```cpp\n" << trim(t.referenceSource) << "\n```\n";
}

void appendExperiences(std::ostringstream& o, const std::vector<memory::ScoredExperience>& retrieved) {
    o << "## Experiences retrieved from memory\n\n";
    if (retrieved.empty()) {
        o << "(none retrieved for this step)\n";
        return;
    }
    o << "Lessons from earlier runs, best match first. Apply the ones that fit; list the ids of those you "
         "actually applied on the ADOPTED line.\n\n";
    for (const auto& s : retrieved) {
        const auto& e = s.experience;
        o << "[E" << e.id << "] " << trim(e.title) << " (" << memory::toString(e.kind) << ", stage "
          << memory::toString(e.stage);
        std::vector<std::string> when;
        if (!e.trigger.category.empty()) when.push_back("category " + e.trigger.category);
        if (!e.trigger.diagnostic.empty()) when.push_back("diagnostic " + e.trigger.diagnostic);
        if (!e.trigger.bottleneck.empty()) when.push_back("bottleneck " + e.trigger.bottleneck);
        for (const auto& w : when) o << "; " << w;
        o << "; value " << (s.q >= 0 ? "+" : "") << fmt(s.q, 2) << ")\n";
        o << trim(e.content) << "\n";
        if (!trim(e.codeIdiom).empty()) o << "Code idiom:\n```cpp\n" << trim(e.codeIdiom) << "\n```\n";
        o << "\n";
    }
}

} // namespace

const char* const kReplyContract =
    "## Reply format (strict)\n"
    "1. Exactly one fenced code block, opened with ```cpp, holding the COMPLETE kernel file: includes, the kernel "
    "(extern \"C\" __global__ __aicore__ entry) and the host side in SAGE_HOST(ctx) { ... ICPU_RUN_KF(...); } "
    "that chooses blockDim and the tiling. No line numbers, no placeholders, no other code blocks.\n"
    "2. After the block, one line: `ADOPTED: <ids>` with the ids of the retrieved experiences you actually "
    "applied, e.g. `ADOPTED: 12, 7`, or `ADOPTED: none`.\n"
    "3. Then one line starting with `RATIONALE:` and one short paragraph: what you changed and why.\n";

std::string Parts::joined() const { return "### system\n" + system + "\n### user\n" + user; }

std::string numbered(const std::string& source) {
    auto lines = splitLines(source);
    const int width = int(std::to_string(lines.size()).size());
    std::string out;
    char buf[16];
    for (size_t i = 0; i < lines.size(); ++i) {
        std::snprintf(buf, sizeof buf, "%*zu | ", width, i + 1);
        out += buf + lines[i] + "\n";
    }
    return out;
}

std::string evaluationSummary(const eval::Evaluation& ev, const std::string& source) {
    const auto lines = splitLines(source);
    std::ostringstream o;
    // Compile (and the source check that runs before it).
    std::vector<const toolchain::Diagnostic*> errors, warnings;
    for (const auto& d : ev.compile.diagnostics) (d.severity == "error" ? errors : warnings).push_back(&d);
    if (ev.run.status == "rejected") {
        o << "Source check: REJECTED before compiling";
        if (!ev.run.message.empty()) o << " — " << ev.run.message;
        o << "\n";
    } else if (!ev.compile.ok) {
        o << "Compile: FAILED with " << errors.size() << " error" << (errors.size() == 1 ? "" : "s") << "\n";
    } else {
        o << "Compile: ok" << (warnings.empty() ? "" : " (" + std::to_string(warnings.size()) + " warnings)") << "\n";
    }
    if (!ev.compile.ok || ev.run.status == "rejected") {
        size_t shown = 0;
        for (const auto* d : errors) {
            if (shown++ == kMaxCompileDiagnostics) break;
            o << "- " << where(*d) << ": error: " << d->message;
            if (!d->kind.empty() && d->kind != "compile_error") o << " [" << d->kind << "]";
            o << "\n";
            if (auto text = lineText(lines, d->line); !text.empty() && (d->file.empty() || d->file == ev.kernel || d->file == "kernel.cpp"))
                o << "    > " << text << "\n";
            for (size_t n = 0; n < d->notes.size() && n < 2; ++n)
                o << "    note: " << (d->notes[n].line > 0 ? d->notes[n].file + ":" + std::to_string(d->notes[n].line) + ": " : "")
                  << d->notes[n].message << "\n";
        }
        if (errors.size() > kMaxCompileDiagnostics)
            o << "- ... and " << errors.size() - kMaxCompileDiagnostics << " more errors\n";
        return o.str();
    }

    // Run on the simulator.
    o << "Run: " << ev.run.status;
    if (ev.run.status != "ok" && !ev.run.message.empty()) o << " — " << ev.run.message;
    o << "\n";
    if (ev.run.status != "ok" && !ev.run.runs.empty()) {
        size_t failed = 0;
        for (const auto& r : ev.run.runs) failed += r.status != "ok";
        o << "  " << failed << " of " << ev.run.runs.size() << " case runs failed";
        for (const auto& r : ev.run.runs)
            if (r.status != "ok") {
                o << " (first: " << r.caseName << " seed " << r.seed << ": " << r.status << ")";
                break;
            }
        o << "\n";
    }
    std::vector<const toolchain::Diagnostic*> sim;
    for (const auto& d : ev.run.diagnostics) if (d.severity == "error") sim.push_back(&d);
    for (const auto& d : ev.run.diagnostics) if (d.severity != "error") sim.push_back(&d);
    if (!sim.empty()) {
        o << "Simulator diagnostics:\n";
        for (size_t i = 0; i < sim.size() && i < kMaxSimDiagnostics; ++i) {
            const auto& d = *sim[i];
            o << "- " << where(d) << ": " << (d.severity.empty() ? "error" : d.severity) << " [" << d.kind
              << "]: " << d.message << "\n";
            if (auto text = lineText(lines, d.line); !text.empty()) o << "    > " << text << "\n";
            for (size_t n = 0; n < d.notes.size() && n < 2; ++n) {
                o << "    note: " << (d.notes[n].line > 0 ? "line " + std::to_string(d.notes[n].line) + ": " : "")
                  << d.notes[n].message;
                if (auto t = lineText(lines, d.notes[n].line); !t.empty()) o << " > " << t;
                o << "\n";
            }
        }
        if (sim.size() > kMaxSimDiagnostics) o << "- ... and " << sim.size() - kMaxSimDiagnostics << " more\n";
    }

    // Verification against the reference.
    if (ev.verify.ran) {
        size_t passed = 0;
        for (const auto& c : ev.verify.cases) passed += c.pass;
        o << "Verification: " << (ev.verify.pass ? "PASS" : "FAIL") << " (" << passed << " of "
          << ev.verify.cases.size() << " case runs pass)\n";
        size_t shown = 0;
        for (const auto& c : ev.verify.cases) {
            for (const auto& out : c.outputs) {
                if (out.pass) continue;
                if (shown++ == kMaxFailedChecks) break;
                o << "- case " << c.caseName << " seed " << c.seed << ", output " << out.name << " (" << out.dtype
                  << "): " << out.mismatches << " of " << out.checked << " elements wrong; max abs error "
                  << fmt(out.maxAbsError) << ", max rel error " << fmt(out.maxRelError) << " (atol " << fmt(out.atol)
                  << ", rtol " << fmt(out.rtol) << ")";
                if (!out.reason.empty()) o << ". " << out.reason;
                o << "\n";
                for (size_t m = 0; m < out.firstMismatches.size() && m < kMaxMismatches; ++m) {
                    const auto& mm = out.firstMismatches[m];
                    o << "    at " << indexText(mm.index) << ": expected " << fmt(mm.expected, 6) << ", got "
                      << fmt(mm.actual, 6) << "\n";
                }
            }
            if (shown > kMaxFailedChecks) break;
        }
        if (shown > kMaxFailedChecks) o << "- ... more failing checks omitted\n";
    } else if (ev.run.status == "ok") {
        o << "Verification: not run\n";
    }

    // Profile of the perf case.
    const auto& p = ev.profile;
    if (p.present) {
        o << "Profile (case " << p.caseName << "): " << p.totalCycles << " cycles";
        if (p.timeUs > 0) o << " = " << fmt(p.timeUs, 4) << " us";
        o << "; blockDim " << p.blockDim << " on " << p.coresUsed << " cores\n";
        o << "- roofline: " << percent(p.rooflineFraction) << " of the best possible (" << p.rooflineCycles
          << " cycles); memory-bound ratio " << fmt(p.memoryBound) << "; core imbalance " << percent(p.imbalance)
          << "; pipe overlap " << fmt(p.pipeOverlap, 2) << "\n";
        if (!p.bottleneck.empty()) {
            o << "- bottleneck: " << p.bottleneck;
            if (!p.advice.empty()) o << " — " << p.advice;
            o << "\n";
        }
        std::vector<std::pair<std::string, double>> ratios(p.pipeRatios.begin(), p.pipeRatios.end());
        std::sort(ratios.begin(), ratios.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
        o << "- pipe busy ratios:";
        for (const auto& [k, v] : ratios) {
            std::string name = k.size() > 6 && k.ends_with("_ratio") ? k.substr(0, k.size() - 6) : k;
            if (v > 0) o << " " << name << " " << percent(v) << ";";
        }
        o << "\n";
        if (!p.lines.empty()) {
            uint64_t total = 0;
            for (const auto& lc : p.lines) total += lc.cycles;
            o << "- hottest lines (share of busy pipe cycles):\n";
            for (size_t i = 0; i < p.lines.size() && i < kHotLines; ++i) {
                const auto& lc = p.lines[i];
                o << "    line " << lc.line << ": " << percent(total ? double(lc.cycles) / double(total) : 0) << ", "
                  << lc.cycles << " cycles, " << lc.events << " ops";
                if (auto t = lineText(lines, lc.line); !t.empty()) o << "  > " << t;
                o << "\n";
            }
        }
    }
    return o.str();
}

std::string stageInstruction(const PolicyContext& ctx) {
    switch (ctx.stage) {
    case memory::Stage::Draft:
        return "Write a complete kernel file for this task that compiles, runs without simulator errors and matches "
               "the reference on every case (including tails that are not a multiple of the tile or of 32 bytes). "
               "Prefer a simple, correct design first: split the elements over blocks with GetBlockIdx/GetBlockNum, "
               "use tiles that fit the unified buffer, move data through TQue with EnQue/DeQue.";
    case memory::Stage::Repair:
        return "The parent candidate fails (see its evaluation above). Find the cause of the first failure and fix it "
               "with the smallest change that makes the kernel compile, run cleanly and verify. Keep everything that "
               "is not part of the fix unchanged.";
    case memory::Stage::Optimize:
        return "The parent candidate is correct. Make it faster (fewer total cycles on the perf case) while keeping it "
               "correct on every case. Use the profile: attack the bottleneck and the hottest lines, raise "
               "parallelism and overlap (more blocks, double buffering, larger tiles) where the numbers say so. "
               "Change one or two things at a time so the effect is attributable.";
    case memory::Stage::Any:
        break;
    }
    return "Propose the next candidate kernel file.";
}

Parts build(const PolicyContext& ctx) {
    Parts parts;
    {
        std::ostringstream s;
        s << "You are an expert AscendC kernel engineer. You write high-performance kernels for SAGE's simulated "
             "Ascend-like NPU: AscendC C++ against kernel_operator.h, compiled with the host compiler, executed on "
             "every simulated AI core and timed by a cycle-approximate model of the pipes. The simulator enforces "
             "the hardware's rules (local buffer capacity, 32-byte alignment, queue depth, synchronisation between "
             "pipes, bounds of global memory) and reports violations with source lines.\n\n";
        s << "# Platform card: the kernel API of the simulated NPU\n\n";
        s << (ctx.platformCard.empty() ? std::string("(no platform card was provided; use standard AscendC)\n")
                                       : trim(ctx.platformCard) + "\n");
        s << "\n" << kReplyContract;
        parts.system = s.str();
    }
    std::ostringstream u;
    u << "# Iteration " << ctx.iteration << ", stage: " << stageName(ctx.stage) << "\n\n";
    if (ctx.task) appendTask(u, *ctx.task);
    else u << "## Task\n(no task given)\n";

    if (!ctx.parentSource.empty()) {
        u << "\n## Parent candidate (line numbers added for reference; do not copy them)\n\n```cpp\n"
          << prompt::numbered(ctx.parentSource) << "```\n";
        if (ctx.parentEvaluation)
            u << "\n## Evaluation of the parent\n\n" << evaluationSummary(*ctx.parentEvaluation, ctx.parentSource);
    } else if (ctx.task && !ctx.task->baselineSource.empty()) {
        u << "\n## Naive baseline (correct but slow; a starting point)\n\n```cpp\n"
          << trim(ctx.task->baselineSource) << "\n```\n";
    }
    if (ctx.bestEvaluation && ctx.bestEvaluation != ctx.parentEvaluation && ctx.bestEvaluation->profile.present)
        u << "\nBest correct candidate so far: " << ctx.bestEvaluation->profile.totalCycles << " cycles ("
          << percent(ctx.bestEvaluation->profile.rooflineFraction) << " of roofline).\n";
    if (!ctx.triedMoves.empty()) {
        u << "\nAlready tried in this run (do not repeat):\n";
        for (const auto& m : ctx.triedMoves) u << "- " << m << "\n";
    }
    u << "\n";
    appendExperiences(u, ctx.retrieved);
    u << "\n## Your job (" << stageName(ctx.stage) << ")\n\n" << stageInstruction(ctx) << "\n\n"
      << "Answer in the reply format: one ```cpp block with the complete file, then `ADOPTED: ...`, then "
         "`RATIONALE: ...`.\n";
    parts.user = u.str();
    return parts;
}

Parts distill(const PolicyContext& ctx, const PolicyProposal& proposal, const eval::Evaluation& before,
              const eval::Evaluation& after) {
    Parts parts;
    parts.system =
        "You are an expert AscendC kernel engineer curating a memory of lessons for an agent that writes kernels for "
        "a simulated Ascend-like NPU. A lesson must be general (useful for other kernels of the same kind), concrete "
        "(names the API, the numbers or the pattern) and short. Answer with ONE JSON object and nothing else.";
    std::ostringstream u;
    u << "An iteration of the agent (stage " << stageName(ctx.stage) << ") succeeded";
    if (ctx.task) u << " on task " << ctx.task->name << " (category " << ctx.task->category << ")";
    u << ".\n\n## Before\n\n" << evaluationSummary(before, ctx.parentSource);
    u << "\n## After\n\n" << evaluationSummary(after, proposal.source);
    if (before.profile.present && after.profile.present && after.profile.totalCycles > 0)
        u << "\nSpeedup: " << fmt(double(before.profile.totalCycles) / double(after.profile.totalCycles)) << "x\n";
    u << "\n## What changed (unified diff, parent -> candidate)\n\n```diff\n"
      << (ctx.parentSource.empty() ? std::string("(first draft: no parent)\n") : unifiedDiff(ctx.parentSource, proposal.source))
      << "```\n";
    if (!proposal.rationale.empty()) u << "\nThe author's rationale: " << proposal.rationale << "\n";
    u << "\nDistil the lesson of this change as one JSON object with exactly these keys:\n"
         "{\"title\": \"<at most 12 words>\", \"content\": \"<one paragraph: when it applies -> what to do -> why>\", "
         "\"kind\": \"insight | repair_rule | optimization | pitfall | api_usage\", "
         "\"evidence_pattern\": \"<an ECMAScript regex that matches code applying the lesson, or empty>\"}\n";
    parts.user = u.str();
    return parts;
}

} // namespace sage::agent::prompt
