#include "PromptBuilder.h"

#include "SourceDiff.h"
#include "Text.h"
#include "prompt/ContextFacts.h"
#include "prompt/PlatformCard.h"

#include "sage_npu/DeviceProfile.h"

#include "sage_memory/ExperienceFields.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <sstream>

namespace sage::agent::prompt {
namespace {


// How much of an evaluation is shown: the full summary, and the compact one a tight budget uses.
struct SummaryLimits {
    size_t compileDiagnostics, notes, simDiagnostics, failedChecks, mismatches, hotLines, messageChars;
};
constexpr SummaryLimits kFullSummary{8, 2, 6, 3, 5, 5, 2000};
constexpr SummaryLimits kCompactSummary{3, 1, 3, 1, 3, 3, 160};

// A diagnostic's message, cut at `limit` characters (compilers' template errors run to pages).
std::string clippedMessage(const std::string& message, size_t limit) {
    return message.size() <= limit ? message : message.substr(0, limit - 3) + "...";
}

// Experiences shown at memory priority, in compact form; the rest come after the platform card.
constexpr size_t kTopExperiences = 3;
constexpr size_t kMaxAdviceChars = 600;

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

using text::splitLines;
using text::trim;
using toolchain::RunStatus;

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
    o << inputRanges(t);
}

// An experience in compact form: id, title, trigger, learned value and its advice (clipped), so
// that the top entries survive a small context window. The code idiom is a separate piece.
std::string experienceText(const memory::ScoredExperience& s) {
    std::ostringstream o;
    const auto& e = s.experience;
    o << "[E" << e.id << "] " << trim(e.title) << " (" << memory::toString(e.kind) << ", stage "
      << memory::toString(e.stage);
    std::vector<std::string> when;
    if (!e.trigger.category.empty()) when.push_back("category " + e.trigger.category);
    if (!e.trigger.diagnostic.empty()) when.push_back("diagnostic " + e.trigger.diagnostic);
    if (!e.trigger.bottleneck.empty()) when.push_back("bottleneck " + e.trigger.bottleneck);
    for (const auto& w : when) o << "; " << w;
    o << "; value " << (s.q >= 0 ? "+" : "") << fmt(s.q, 2) << ")\n";
    std::string advice = trim(e.content);
    if (advice.size() > kMaxAdviceChars) advice = advice.substr(0, kMaxAdviceChars - 3) + "...";
    o << advice << "\n\n";
    return o.str();
}

std::string idiomText(const memory::ScoredExperience& s) {
    const std::string idiom = trim(s.experience.codeIdiom);
    return idiom.empty() ? std::string() : "Code idiom of E" + std::to_string(s.experience.id) + ":\n```cpp\n" + idiom + "\n```\n\n";
}

std::string cardPieceName(const CardPiece& c) {
    if (c.section.empty()) return "card: preamble";
    return "card: " + c.section + (c.subsection.empty() ? "" : " / " + c.subsection);
}

// Within the core card, what no kernel can be written without comes first: the entry point, the
// queues, contiguous copies, the count form of vector instructions and global tensors. The rest
// of the core (preamble, memories, host side, tiling, unaligned copies) follows when room remains.
int coreRank(const CardPiece& c) {
    if (!c.section.empty() && c.subsection.empty()) return 0;  // a section's lead (its heading goes with its pieces)
    const std::string heading = text::lower(c.section + " / " + c.subsection);
    for (const char* essential : {"kernel entry", "tpipe", "contiguous", "count form", "global tensors"})
        if (heading.find(essential) != std::string::npos) return 0;
    return 1;
}

Priority priorityOf(CardNeed need) {
    switch (need) {
    case CardNeed::Core: return Priority::CoreCard;
    case CardNeed::Task: return Priority::TaskCard;
    case CardNeed::Optional: return Priority::OptionalCard;
    default: return Priority::Examples;
    }
}

// Value floor, as in the built-in policy: an entry whose learned value for this stage is negative
// has, on balance, made kernels worse when adopted. It is still shown (a model that knows what
// failed does not rediscover it) but under "avoid", without its code idiom, so the learned value
// decides what the model is invited to apply (issue 12). Under `similarity` values are not learned
// and stay 0: every entry is offered. The top entries are memory priority: the last to go.
void addExperiences(std::vector<Piece>& pieces, const std::vector<memory::ScoredExperience>& retrieved) {
    auto add = [&](std::string name, std::string text, Priority priority, std::string group, bool head) -> Piece* {
        if (text.empty()) return nullptr;
        Piece p;
        p.name = std::move(name);
        p.text = std::move(text);
        p.priority = priority;
        p.group = std::move(group);
        p.groupHead = head;
        pieces.push_back(std::move(p));
        return &pieces.back();
    };
    std::vector<const memory::ScoredExperience*> offered, distrusted;
    for (const auto& e : retrieved) (e.q < 0.0 ? distrusted : offered).push_back(&e);
    const std::string group = "experiences";
    add("experiences: header",
        retrieved.empty() ? "\n## Experiences retrieved from memory\n\n(none retrieved for this step)\n"
        : offered.empty() ? "\n## Experiences retrieved from memory\n\n(none with a non-negative learned value for this "
                            "step; see the experiences to avoid below)\n"
                          : "\n## Experiences retrieved from memory\n\nLessons from earlier runs, best match first. Apply "
                            "the ones that fit; list the ids of those you actually applied on the ADOPTED line.\n\n",
        offered.empty() ? Priority::Required : Priority::Memory, group, true);
    for (size_t i = 0; i < offered.size(); ++i) {
        const auto& e = *offered[i];
        const std::string name = "experience E" + std::to_string(e.experience.id);
        add(name, experienceText(e), i < kTopExperiences ? Priority::Memory : Priority::MemoryDetail, group, false)
            ->experienceId = e.experience.id;
        if (Piece* idiom = add(name + ": code idiom", idiomText(e), Priority::MemoryDetail, group, false)) idiom->needs = name;
    }
    if (distrusted.empty()) return;
    const std::string avoid = "experiences to avoid";
    add("experiences to avoid: header",
        "\n## Experiences to avoid\n\nThese matched this step, but their learned value is negative: applied in earlier "
        "runs, they made kernels slower or wrong more often than not. Do not apply them unless this kernel clearly "
        "differs from where they failed.\n\n",
        Priority::MemoryDetail, avoid, true);
    for (const auto* e : distrusted) {
        add("avoid E" + std::to_string(e->experience.id), experienceText(*e), Priority::MemoryDetail, avoid, false)
            ->experienceId = e->experience.id;
    }
}

void addPiece(std::vector<Piece>& pieces, std::string name, std::string text, Priority priority, bool system) {
    if (text.empty()) return;
    Piece p;
    p.name = std::move(name);
    p.text = std::move(text);
    p.priority = priority;
    p.system = system;
    pieces.push_back(std::move(p));
}

// The parent with its evaluation (repair, optimise), or the naive baseline (draft).
void addParentOrBaseline(std::vector<Piece>& pieces, const PolicyContext& ctx) {
    auto add = [&](std::string name, std::string text, Priority priority, bool system) {
        addPiece(pieces, std::move(name), std::move(text), priority, system);
    };
    if (!ctx.parentSource.empty()) {
        add("parent",
            "\n## Parent candidate (line numbers added for reference; do not copy them)\n\n```cpp\n" +
                numbered(ctx.parentSource) + "```\n",
            Priority::Required, false);
        // In a tight window the line numbers go (about a tenth of a kernel's tokens); the
        // evaluation quotes every line it names.
        pieces.back().compact = "\n## Parent candidate (without line numbers to fit the context window; the evaluation "
                                "quotes the lines it names)\n\n```cpp\n" + ctx.parentSource +
                                (ctx.parentSource.ends_with("\n") ? "" : "\n") + "```\n";
        if (ctx.parentEvaluation) {
            add("evaluation",
                "\n## Evaluation of the parent\n\n" + evaluationSummary(*ctx.parentEvaluation, ctx.parentSource),
                Priority::Required, false);
            pieces.back().compact = "\n## Evaluation of the parent (condensed)\n\n" +
                                    evaluationSummary(*ctx.parentEvaluation, ctx.parentSource, /*compact=*/true);
        }
    } else if (ctx.task && !ctx.task->baselineSource.empty()) {
        // A baseline that uses a feature this device lacks would teach the wrong API.
        const bool fits = !ctx.device || ctx.device->dataCopyPad ||
                          ctx.task->baselineSource.find("DataCopyPad") == std::string::npos;
        if (fits)
            add("baseline",
                "\n## Naive baseline (correct but slow; a starting point)\n\n```cpp\n" +
                    trim(ctx.task->baselineSource) + "\n```\n",
                Priority::Reference, false);
    }
}

// Compile (and the source check that runs before it); true when the evaluation stops there.
bool compileSection(std::ostringstream& o, const eval::Evaluation& ev, const std::vector<std::string>& lines, const SummaryLimits& lim) {

    // Compile (and the source check that runs before it).
    std::vector<const toolchain::Diagnostic*> errors, warnings;
    for (const auto& d : ev.compile.diagnostics) (d.severity == toolchain::Severity::Error ? errors : warnings).push_back(&d);
    if (ev.run.status == RunStatus::Rejected) {
        o << "Source check: REJECTED before compiling";
        if (!ev.run.message.empty()) o << " — " << ev.run.message;
        o << "\n";
    } else if (!ev.compile.ok) {
        o << "Compile: FAILED with " << errors.size() << " error" << (errors.size() == 1 ? "" : "s") << "\n";
    } else {
        o << "Compile: ok" << (warnings.empty() ? "" : " (" + std::to_string(warnings.size()) + " warnings)") << "\n";
    }
    if (!ev.compile.ok || ev.run.status == RunStatus::Rejected) {
        size_t shown = 0;
        for (const auto* d : errors) {
            if (shown++ == lim.compileDiagnostics) break;
            o << "- " << where(*d) << ": error: " << clippedMessage(d->message, lim.messageChars);
            if (d->kind != toolchain::DiagnosticKind::CompileError && !d->kind.name().empty()) o << " [" << d->kind.name() << "]";
            o << "\n";
            if (auto text = lineText(lines, d->line); !text.empty() && (d->file.empty() || d->file == ev.kernel || d->file == "kernel.cpp"))
                o << "    > " << text << "\n";
            for (size_t n = 0; n < d->notes.size() && n < lim.notes; ++n) {
                const auto& note = d->notes[n];
                o << "    note: " << (note.line > 0 ? (note.file.empty() ? std::string("kernel.cpp") : note.file) + ":" +
                                                          std::to_string(note.line) + ": "
                                                    : "")
                  << clippedMessage(note.message, lim.messageChars) << "\n";
                // An error inside a header is caused by a kernel line; the note names it, show it.
                if (note.file.empty() || note.file == ev.kernel || note.file == "kernel.cpp")
                    if (auto text = lineText(lines, note.line); !text.empty())
                        o << "    > kernel.cpp line " << note.line << ": " << text << "\n";
            }
        }
        if (errors.size() > lim.compileDiagnostics)
            o << "- ... and " << errors.size() - lim.compileDiagnostics << " more errors\n";
        return true;
    }

    return false;
}

void runSection(std::ostringstream& o, const eval::Evaluation& ev, const std::vector<std::string>& lines, const SummaryLimits& lim) {
    // Run on the simulator.
    o << "Run: " << toString(ev.run.status);
    if (ev.run.status != RunStatus::Ok && !ev.run.message.empty()) o << " — " << ev.run.message;
    o << "\n";
    if (ev.run.status != RunStatus::Ok && !ev.run.runs.empty()) {
        size_t failed = 0;
        for (const auto& r : ev.run.runs) failed += r.status != RunStatus::Ok;
        o << "  " << failed << " of " << ev.run.runs.size() << " case runs failed";
        for (const auto& r : ev.run.runs)
            if (r.status != RunStatus::Ok) {
                o << " (first: " << r.caseName << " seed " << r.seed << ": " << toString(r.status) << ")";
                break;
            }
        o << "\n";
    }
    std::vector<const toolchain::Diagnostic*> sim;
    for (const auto& d : ev.run.diagnostics) if (d.severity == toolchain::Severity::Error) sim.push_back(&d);
    for (const auto& d : ev.run.diagnostics) if (d.severity != toolchain::Severity::Error) sim.push_back(&d);
    if (!sim.empty()) {
        o << "Simulator diagnostics:\n";
        for (size_t i = 0; i < sim.size() && i < lim.simDiagnostics; ++i) {
            const auto& d = *sim[i];
            o << "- " << where(d) << ": " << toString(d.severity) << " [" << d.kind.name()
              << "]: " << clippedMessage(d.message, lim.messageChars) << "\n";
            if (auto text = lineText(lines, d.line); !text.empty()) o << "    > " << text << "\n";
            for (size_t n = 0; n < d.notes.size() && n < lim.notes; ++n) {
                o << "    note: " << (d.notes[n].line > 0 ? "line " + std::to_string(d.notes[n].line) + ": " : "")
                  << d.notes[n].message;
                if (auto t = lineText(lines, d.notes[n].line); !t.empty()) o << " > " << t;
                o << "\n";
            }
        }
        if (sim.size() > lim.simDiagnostics) o << "- ... and " << sim.size() - lim.simDiagnostics << " more\n";
    }

}

void verifySection(std::ostringstream& o, const eval::Evaluation& ev, const SummaryLimits& lim) {
    // Verification against the reference: one block per failing case and output, seeds folded.
    if (ev.verify.ran) {
        size_t passed = 0;
        for (const auto& c : ev.verify.cases) passed += c.pass;
        o << "Verification: " << (ev.verify.pass ? "PASS" : "FAIL") << " (" << passed << " of "
          << ev.verify.cases.size() << " case runs pass)\n";
        struct Failure {
            std::string caseName;
            const eval::OutputCheck* first = nullptr;
            std::vector<uint64_t> seeds;
        };
        std::vector<Failure> failures;
        for (const auto& c : ev.verify.cases)
            for (const auto& out : c.outputs) {
                if (out.pass) continue;
                auto it = std::find_if(failures.begin(), failures.end(), [&](const Failure& f) {
                    return f.caseName == c.caseName && f.first->name == out.name;
                });
                if (it == failures.end()) failures.push_back({c.caseName, &out, {c.seed}});
                else it->seeds.push_back(c.seed);
            }
        for (size_t i = 0; i < failures.size() && i < lim.failedChecks; ++i) {
            const auto& f = failures[i];
            const auto& out = *f.first;
            o << "- case " << f.caseName << " seed" << (f.seeds.size() > 1 ? "s " : " ");
            for (size_t k = 0; k < f.seeds.size(); ++k) o << (k ? ", " : "") << f.seeds[k];
            o << ", output " << out.name << " (" << out.dtype << "): " << out.mismatches << " of " << out.checked
              << " elements wrong";
            if (f.seeds.size() > 1) o << " (seed " << f.seeds[0] << "; the other seeds fail alike)";
            o << "; max abs error " << fmt(out.maxAbsError) << ", max rel error " << fmt(out.maxRelError) << " (atol "
              << fmt(out.atol) << ", rtol " << fmt(out.rtol) << ")";
            if (!out.reason.empty() && out.reason != ev.run.message) o << ". " << out.reason;
            o << "\n";
            for (size_t m = 0; m < out.firstMismatches.size() && m < lim.mismatches; ++m) {
                const auto& mm = out.firstMismatches[m];
                o << "    at " << indexText(mm.index) << ": expected " << fmt(mm.expected, 6) << ", got "
                  << fmt(mm.actual, 6) << "\n";
            }
        }
        if (failures.size() > lim.failedChecks)
            o << "- ... " << failures.size() - lim.failedChecks << " more failing case outputs omitted\n";
    } else if (ev.run.status == RunStatus::Ok) {
        o << "Verification: not run\n";
    }

}

void profileSection(std::ostringstream& o, const eval::Evaluation& ev, const std::vector<std::string>& lines, const SummaryLimits& lim) {
    // Profile of the perf case, only for a kernel that ran cleanly: the timing of a run that
    // stopped on an error is meaningless and misleads a repair.
    const auto& p = ev.profile;
    if (p.present && ev.run.status != RunStatus::Ok) {
        o << "Profile: not shown (the kernel did not run to the end)\n";
    } else if (p.present) {
        const uint64_t cores = std::max<uint64_t>(1, p.coresUsed);
        o << "Profile (case " << p.caseName << "): " << p.totalCycles << " cycles";
        if (p.timeUs > 0) o << " = " << fmt(p.timeUs, 4) << " us";
        o << "; blockDim " << p.blockDim << " on " << p.coresUsed << " cores\n";
        o << "- roofline: " << percent(p.rooflineFraction) << " of the best possible (" << p.rooflineCycles
          << " cycles); memory-bound ratio " << fmt(p.memoryBound) << "; core imbalance " << percent(p.imbalance)
          << "; pipe overlap " << fmt(p.pipeOverlap, 2) << "\n";
        o << "  (memory-bound ratio = MTE2 (GM->UB) busy time / the busier of vector and cube: above 1 the kernel "
             "waits on loads; core imbalance = slowest core / mean core - 1; pipe overlap = sum of all pipes' busy "
             "time / core time: 1 means the pipes take turns, higher means they run concurrently)\n";
        if (!p.bottleneck.empty()) {
            o << "- bottleneck: " << p.bottleneck;
            if (!p.advice.empty()) o << " — " << p.advice;
            o << "\n";
        }
        std::vector<std::pair<std::string, double>> ratios(p.pipeRatios.begin(), p.pipeRatios.end());
        std::sort(ratios.begin(), ratios.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
        o << "- pipe busy ratios (busy cycles / core cycles):";
        for (const auto& [k, v] : ratios) {
            std::string name = k.size() > 6 && k.ends_with("_ratio") ? k.substr(0, k.size() - 6) : k;
            if (v > 0) o << " " << name << " " << percent(v) << ";";
        }
        o << "\n";
        if (!p.lines.empty()) {
            uint64_t total = 0;
            for (const auto& lc : p.lines) total += lc.cycles;
            o << "- hottest lines (share of all busy pipe cycles; cycles per core = the line's busy cycles summed over "
              << cores << " core" << (cores == 1 ? "" : "s") << " / " << cores << "):\n";
            for (size_t i = 0; i < p.lines.size() && i < lim.hotLines; ++i) {
                const auto& lc = p.lines[i];
                o << "    line " << lc.line << ": " << percent(total ? double(lc.cycles) / double(total) : 0) << ", "
                  << lc.cycles / cores << " cycles per core, " << lc.events / cores << " ops per core";
                if (auto t = lineText(lines, lc.line); !t.empty()) o << "  > " << t;
                o << "\n";
            }
        }
    }
}

} // namespace

const char* const kReplyContract =
    "## Reply format\n"
    "Either (a) one fenced code block opened with ```cpp holding the COMPLETE kernel file: includes, the kernel "
    "(extern \"C\" __global__ __aicore__ entry) and the host side in SAGE_HOST(ctx) { ... ICPU_RUN_KF(...); } that "
    "chooses blockDim and the tiling; no line numbers, no placeholders;\n"
    "or (b), when a parent candidate is shown, SEARCH/REPLACE blocks that edit it, each exactly:\n"
    "<<<<<<< SEARCH\n(lines copied exactly from the parent, without line numbers)\n=======\n(the new lines)\n"
    ">>>>>>> REPLACE\n"
    "Then one line `ADOPTED: <ids>` with the ids of the retrieved experiences you actually applied, e.g. "
    "`ADOPTED: E12, E7`, or `ADOPTED: none`. Then one line starting with `RATIONALE:` and one short paragraph: "
    "what you changed and why.\n";

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

std::string evaluationSummary(const eval::Evaluation& ev, const std::string& source, bool compact) {
    const SummaryLimits& lim = compact ? kCompactSummary : kFullSummary;
    const auto lines = splitLines(source);
    std::ostringstream o;
    if (compileSection(o, ev, lines, lim)) return o.str();
    runSection(o, ev, lines, lim);
    verifySection(o, ev, lim);
    profileSection(o, ev, lines, lim);
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

Parts build(const PolicyContext& ctx, const Budget& budget) {
    std::vector<Piece> pieces;
    auto add = [&](std::string name, std::string text, Priority priority, bool system) {
        addPiece(pieces, std::move(name), std::move(text), priority, system);
    };
    add("role",
        "You are an expert AscendC kernel engineer. You write high-performance kernels for SAGE's simulated "
        "Ascend-like NPU: AscendC C++ against kernel_operator.h, compiled with the host compiler, executed on "
        "every simulated AI core and timed by a cycle-approximate model of the pipes. The simulator enforces "
        "the hardware's rules (local buffer capacity, 32-byte alignment, queue depth, synchronisation between "
        "pipes, bounds of global memory) and reports violations with source lines.\n\n",
        Priority::Required, true);
    if (ctx.device) add("device", deviceFacts(*ctx.device) + "\n", Priority::Required, true);

    // The platform card: the pieces this task, stage and device need; the rest when room remains.
    add("card: title", "# Platform card: the kernel API of the simulated NPU\n\n", Priority::CoreCard, true);
    if (ctx.platformCard.empty()) {
        add("card: missing", "(no platform card was provided; use standard AscendC)\n", Priority::Required, true);
    } else {
        CardRequest req;
        req.stage = ctx.stage;
        req.device = ctx.device;
        if (ctx.task) {
            req.category = ctx.task->category;
            for (const auto* list : {&ctx.task->inputs, &ctx.task->outputs})
                for (const auto& x : *list) req.dtypes.push_back(x.dtype);
        }
        auto card = splitCard(ctx.platformCard);
        classify(card, req);
        for (const auto& c : card) {
            if (c.need == CardNeed::Omit) continue;
            add(cardPieceName(c), c.text, priorityOf(c.need), true);
            pieces.back().rank = c.need == CardNeed::Core ? coreRank(c) : 0;
            pieces.back().group = "card:" + c.section;
            pieces.back().groupHead = c.subsection.empty();
        }
    }
    add("reply format", "\n" + std::string(kReplyContract), Priority::Required, true);

    std::ostringstream task;
    task << "# Iteration " << ctx.iteration << ", stage: " << stageName(ctx.stage) << "\n\n";
    if (ctx.task) appendTask(task, *ctx.task);
    else task << "## Task\n(no task given)\n";
    add("task", task.str(), Priority::Required, false);
    if (ctx.task && !ctx.task->referenceSource.empty())
        add("reference",
            "\nReference semantics (plain C++, runs on the host):\n```cpp\n" + trim(ctx.task->referenceSource) +
                "\n```\n",
            Priority::Reference, false);

    addParentOrBaseline(pieces, ctx);
    if (ctx.bestEvaluation && ctx.bestEvaluation != ctx.parentEvaluation && ctx.bestEvaluation->profile.present)
        add("best so far",
            "\nBest correct candidate so far: " + std::to_string(ctx.bestEvaluation->profile.totalCycles) +
                " cycles (" + percent(ctx.bestEvaluation->profile.rooflineFraction) + " of roofline).\n",
            Priority::Required, false);
    if (auto h = attemptHistory(ctx.history); !h.empty()) add("history", "\n" + h, Priority::History, false);

    addExperiences(pieces, ctx.retrieved);

    add("instruction",
        "\n## Your job (" + stageName(ctx.stage) + ")\n\n" + stageInstruction(ctx) + "\n\n" +
            (ctx.parentSource.empty()
                 ? "Answer in the reply format: one ```cpp block with the complete file, then `ADOPTED: ...`, then "
                   "`RATIONALE: ...`.\n"
                 : "Answer in the reply format: the complete file in one ```cpp block or SEARCH/REPLACE blocks "
                   "against the parent, then `ADOPTED: ...`, then `RATIONALE: ...`.\n"),
        Priority::Required, false);

    Parts parts;
    parts.layout = assemble(pieces, budget);
    parts.system = parts.layout.system;
    parts.user = parts.layout.user;
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
