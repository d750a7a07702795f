#include "sage_agent/BuiltinPolicy.h"
#include "sage_agent/KernelComposer.h"

#include "sage_toolchain/Hash.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

namespace sage::agent {
using nlohmann::json;

std::string sourceKey(const std::string& source) { return toolchain::ContentHash().add(source).hex(); }

namespace {

bool isMemoryTunable(const Tunable& t) {
    static const std::vector<std::string> keys = {"tile", "rows", "base_", "chunk", "length", "buffer"};
    std::string k = t.key;
    for (const auto& s : keys)
        if (k.find(s) != std::string::npos) return true;
    return false;
}

// The next allowed value above/below the current one (allowed list sorted numerically).
std::optional<long long> step(const Tunable& t, bool up) {
    std::vector<long long> a = t.allowed;
    if (a.empty()) return up ? std::optional<long long>(t.value * 2) : (t.value > 1 ? std::optional<long long>(t.value / 2) : std::nullopt);
    std::sort(a.begin(), a.end());
    if (up) {
        auto it = std::upper_bound(a.begin(), a.end(), t.value);
        return it == a.end() ? std::nullopt : std::optional<long long>(*it);
    }
    auto it = std::lower_bound(a.begin(), a.end(), t.value);
    return it == a.begin() ? std::nullopt : std::optional<long long>(*(it - 1));
}

std::optional<long long> resolveValue(const Tunable& t, const json& v) {
    std::vector<long long> a = t.allowed;
    std::sort(a.begin(), a.end());
    if (v.is_number()) {
        long long want = v.get<long long>();
        if (!a.empty() && std::find(a.begin(), a.end(), want) == a.end()) return std::nullopt;
        return want;
    }
    if (v.is_string()) {
        std::string s = v.get<std::string>();
        if (a.empty()) return std::nullopt;
        if (s == "max" || s == "cores") return a.back();
        if (s == "min") return a.front();
    }
    return std::nullopt;
}

std::optional<long long> scaled(const Tunable& t, double factor) {
    if (factor <= 0) return std::nullopt;
    double target = double(t.value) * factor;
    std::vector<long long> a = t.allowed;
    std::sort(a.begin(), a.end());
    if (a.empty()) return std::max(1LL, (long long)std::llround(target));
    if (factor > 1) {  // smallest allowed value >= target (or the largest one)
        for (long long v : a)
            if (double(v) >= target - 1e-9) return v;
        return a.back();
    }
    for (auto it = a.rbegin(); it != a.rend(); ++it)  // largest allowed value <= target
        if (double(*it) <= target + 1e-9) return *it;
    return a.front();
}

std::string insertBarrier(const std::string& source, int line) {
    std::istringstream in(source);
    std::ostringstream out;
    std::string l;
    int n = 0;
    while (std::getline(in, l)) {
        ++n;
        if (n == line) {
            std::string indent = l.substr(0, l.find_first_not_of(" \t"));
            out << indent << "AscendC::PipeBarrier<PIPE_ALL>();  // sage: order the pipes that raced here\n";
        }
        out << l << '\n';
    }
    return out.str();
}

const toolchain::Diagnostic* firstError(const eval::Evaluation* ev, const std::string& prefix) {
    if (!ev) return nullptr;
    for (const auto& d : ev->run.diagnostics)
        if (d.severity == "error" && d.kind.rfind(prefix, 0) == 0) return &d;
    return nullptr;
}

} // namespace

json BuiltinPolicy::settings() const {
    return {{"moves", "memory actions in retrieval order, then the fixed fallback"},
            {"fallback_optimize", "each tunable in file order, one allowed step up"},
            {"fallback_repair", "capacity_exceeded: memory tunables one step down; race: PipeBarrier before the line"}};
}

std::optional<BuiltinPolicy::Move> BuiltinPolicy::apply(const std::string& source, const json& action,
                                                       const eval::Evaluation* parent) {
    if (!action.is_object() || !action.contains("type")) return std::nullopt;
    const std::string type = action.value("type", "");
    if (type == "transform") {
        const std::string name = action.value("name", "");
        if (name == "insert_barrier" || name == "add_sync") {
            const auto* race = firstError(parent, "race_");
            if (!race || race->line <= 0) return std::nullopt;
            return Move{insertBarrier(source, race->line), "PipeBarrier<PIPE_ALL> before line " + std::to_string(race->line),
                        action, 0};
        }
        return std::nullopt;  // other transforms are for the LLM policy
    }
    auto tunables = parseTunables(source);
    auto t = findTunable(tunables, action.value("name", ""));
    if (!t) return std::nullopt;
    std::optional<long long> v;
    if (type == "set_tunable") v = resolveValue(*t, action.value("value", json()));
    else if (type == "scale_tunable") v = scaled(*t, action.value("factor", 0.0));
    else if (type == "step_tunable") v = step(*t, action.value("direction", "up") != "down");
    if (!v || *v == t->value) return std::nullopt;
    return Move{setTunable(source, *t, *v), t->key + " " + std::to_string(t->value) + " -> " + std::to_string(*v),
                action, 0};
}

PolicyProposal BuiltinPolicy::propose(const PolicyContext& ctx) {
    PolicyProposal p;
    if (ctx.stage == memory::Stage::Draft) {
        // Draft from the task's compute spec (never from baseline.cpp, which stays a comparison point).
        if (!ctx.task || !ctx.device) {
            p.exhausted = true;
            p.error = "the built-in draft needs the task and the device profile";
            return p;
        }
        if (!ctx.task->compute.present && !ctx.task->baselineSource.empty()) {
            // A task without a compute spec (older task folders): its baseline is the only start.
            p.ok = true;
            p.source = ctx.task->baselineSource;
            p.move = "draft: the task's baseline (no compute spec)";
            p.rationale = "The task has no \"compute\" spec to compose a draft from; starting from baseline.cpp.";
            return p;
        }
        DraftResult d = composeDraft(*ctx.task, *ctx.device, ctx.retrieved);
        if (!d.ok) {
            p.exhausted = true;
            p.error = d.error;
            return p;
        }
        p.ok = true;
        p.source = std::move(d.source);
        p.move = std::move(d.move);
        p.rationale = std::move(d.rationale);
        p.adoptedIds = std::move(d.adoptedIds);
        p.action = std::move(d.action);
        return p;
    }
    std::set<std::string> tried(ctx.triedMoves.begin(), ctx.triedMoves.end());
    std::vector<Move> moves;
    // Optimisation never repeats a source; a repair may return to one (that is a revert).
    const bool repair = ctx.stage == memory::Stage::Repair;
    auto consider = [&](std::optional<Move> m, int64_t experienceId) {
        if (!m || (!repair && tried.count(sourceKey(m->source))) || m->source == ctx.parentSource) return;
        m->experienceId = experienceId;
        moves.push_back(*m);
    };
    for (const auto& r : ctx.retrieved) consider(apply(ctx.parentSource, r.experience.action, ctx.parentEvaluation), r.experience.id);
    auto tunables = parseTunables(ctx.parentSource);
    if (ctx.stage == memory::Stage::Repair) {
        if (firstError(ctx.parentEvaluation, "race_"))
            consider(apply(ctx.parentSource, {{"type", "transform"}, {"name", "insert_barrier"}}, ctx.parentEvaluation), 0);
        // Out of local memory: shrink the tiles first, then the buffer counts.
        if (firstError(ctx.parentEvaluation, "capacity_exceeded") || firstError(ctx.parentEvaluation, "too_many_allocs"))
            for (bool buffers : {false, true})
                for (const auto& t : tunables)
                    if (isMemoryTunable(t) && (t.key.find("buffer") != std::string::npos) == buffers)
                        consider(apply(ctx.parentSource, {{"type", "step_tunable"}, {"name", t.key}, {"direction", "down"}},
                                       ctx.parentEvaluation), 0);
    } else {
        for (const auto& t : tunables)
            consider(apply(ctx.parentSource, {{"type", "step_tunable"}, {"name", t.key}, {"direction", "up"}},
                           ctx.parentEvaluation), 0);
    }
    if (moves.empty()) {
        p.exhausted = true;
        p.error = tunables.empty() ? "the kernel declares no // @tunable constants: nothing the built-in policy can change"
                                   : "no untried move applies to this kernel";
        return p;
    }
    const Move& m = moves.front();
    p.ok = true;
    p.source = m.source;
    p.move = m.description;
    p.action = m.action;
    if (m.experienceId) p.adoptedIds.push_back(m.experienceId);
    p.rationale = m.experienceId ? "Applied the action of experience #" + std::to_string(m.experienceId) + ": " + m.description
                                 : "Fallback move: " + m.description;
    return p;
}

std::optional<Lesson> BuiltinPolicy::distill(const PolicyContext& ctx, const PolicyProposal& proposal,
                                             const eval::Evaluation& before, const eval::Evaluation& after) {
    if (!proposal.action.is_object()) return std::nullopt;
    Lesson l;
    const std::string category = ctx.task ? ctx.task->category : "";
    if (ctx.stage == memory::Stage::Repair) {
        std::string kind = before.run.diagnostics.empty() ? "wrong_result" : before.run.diagnostics.front().kind;
        l.kind = "repair_rule";
        l.title = "Repair " + kind + ": " + proposal.move;
        l.content = "In task " + (ctx.task ? ctx.task->name : std::string("?")) + " (" + category + "), the kernel failed with " +
                    kind + "; " + proposal.move + " fixed it.";
    } else {
        double speedup = after.profile.totalCycles ? double(before.profile.totalCycles) / double(after.profile.totalCycles) : 0;
        std::ostringstream c;
        c.precision(3);
        c << "In task " << (ctx.task ? ctx.task->name : std::string("?")) << " (" << category << "), with the profile saying "
          << before.profile.bottleneck << ", " << proposal.move << " made the kernel " << speedup << "x faster ("
          << before.profile.totalCycles << " -> " << after.profile.totalCycles << " cycles).";
        l.kind = "optimization";
        l.title = before.profile.bottleneck + ": " + proposal.move;
        l.content = c.str();
    }
    l.action = proposal.action;
    std::string name = proposal.action.value("name", "");
    if (!name.empty() && proposal.action.value("type", "") != "transform") l.evidencePattern = name;
    return l;
}

} // namespace sage::agent
