#include "sage_agent/BuiltinPolicy.h"

#include "CaseVariants.h"
#include "sage_agent/KernelComposer.h"

#include "repair/RepairPlanner.h"
#include "sage_npu/DeviceProfile.h"
#include "sage_toolchain/Hash.h"
#include "transforms/Transform.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <sstream>

namespace sage::agent {
using nlohmann::json;

std::string sourceKey(const std::string& source) { return toolchain::ContentHash().add(source).hex(); }

namespace {

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

std::optional<long long> resolveValue(const Tunable& t, const json& v, const npu::DeviceProfile* device) {
    std::vector<long long> a = t.allowed;
    std::sort(a.begin(), a.end());
    if (v.is_number()) {
        long long want = v.get<long long>();
        if (!a.empty() && std::find(a.begin(), a.end(), want) == a.end()) return std::nullopt;
        return want;
    }
    if (v.is_string()) {
        std::string s = v.get<std::string>();
        if (s == "cores" && device) {  // the largest allowed value within the device's cores
            long long cores = device->vectorCores, best = 0;
            if (a.empty()) return cores;
            for (long long x : a)
                if (x <= cores) best = x;
            return best ? std::optional<long long>(best) : std::nullopt;
        }
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

const toolchain::Diagnostic* firstRaceError(const eval::Evaluation* ev) {
    if (!ev) return nullptr;
    for (const auto& d : ev->run.diagnostics)
        if (d.severity == toolchain::Severity::Error && d.kind.isRace()) return &d;
    return nullptr;
}

} // namespace

std::vector<json> neutralOrder(std::vector<json> actions, uint64_t runSeed) {
    std::vector<std::pair<std::string, json>> keyed;
    keyed.reserve(actions.size());
    for (auto& a : actions)
        keyed.emplace_back(toolchain::ContentHash().add(std::to_string(runSeed)).add(a.dump()).hex(), std::move(a));
    std::stable_sort(keyed.begin(), keyed.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    std::vector<json> out;
    out.reserve(keyed.size());
    for (auto& [key, a] : keyed) out.push_back(std::move(a));
    return out;
}

namespace {

// A knob by name, or by role ("@tile", "@tile_count", "@buffer", "@block").
std::optional<Tunable> knobNamed(const std::string& source, const std::string& name) {
    auto knobs = inferKnobs(source);
    if (!name.empty() && name[0] == '@') {
        for (const auto& t : knobs)
            if (t.role == name.substr(1)) return t;
        return std::nullopt;
    }
    return findTunable(knobs, name);
}

// The policy's own optimisation moves: every structural transform each way and every knob one
// step each way. It knows what it can do, not what pays off: the order is neutral, a hash of the
// run's seed and the action, so it is fixed within a run, differs between seeds, and was tuned on
// no task. Which move helps under which bottleneck, category and device is what memory learns.
std::vector<json> optimiseFallback(const std::string& source, uint64_t runSeed) {
    std::vector<json> out;
    for (const char* name : {"multi_core", "double_buffer", "tile_from_ub", "precise_sync"})
        out.push_back({{"type", "transform"}, {"name", name}});
    for (const auto& t : inferKnobs(source))
        if (!t.role.empty() || t.origin == Tunable::Origin::Annotated)
            for (const char* dir : {"up", "down"}) out.push_back({{"type", "step_tunable"}, {"name", t.constant}, {"direction", dir}});
    for (const char* name : {"multi_core", "double_buffer", "tile_from_ub"})
        out.push_back({{"type", "transform"}, {"name", name}, {"direction", "down"}});
    return neutralOrder(std::move(out), runSeed);
}

// The kind of a move ("double buffering" of "double buffering: BUFFER_NUM 1 -> 2"): a fallback
// kind that failed to gain in a run is demoted for the rest of it.
std::string moveKind(const std::string& description) { return description.substr(0, description.find(':')); }

} // namespace

json BuiltinPolicy::settings() const {
    return {{"moves", "memory actions by retrieval score (with Q), then the fallback; epsilon-exploration seeded per iteration"},
            {"fallback_optimize", "each transform (multi_core, double_buffer, tile_from_ub, precise_sync, and back) and each "
                                  "knob one step up and down, in a neutral order seeded per run; a kind that did not gain "
                                  "in the run goes last"},
            {"fallback_repair", "by diagnostic kind: sync_pair, set_before_wait, wait_after_set, rename_identifier, "
                                "template_argument, free_tensor, enque_tensor, init_buffer, gm_offset_consensus, "
                                "tile/buffer steps down, align_tail"}};
}

// Whether the kernel divides its work by block: without it a block_dim change only launches more
// copies of the same work (identical cycles, a wasted iteration).
static bool splitsOverBlocks(const std::string& source) {
    for (const char* call : {"GetBlockIdx", "get_block_idx", "GetBlockNum", "get_block_num", "block_idx"})
        if (source.find(call) != std::string::npos) return true;
    return false;
}

// A knob move on the launch's block count of a kernel that does not divide its work by block.
static bool launchCountOnly(const std::string& source, const json& action) {
    if (action.value("type", "") == "transform" || !action.contains("name") || !action["name"].is_string()) return false;
    const auto t = knobNamed(source, action["name"].get<std::string>());
    return t && t->role == "block" && !splitsOverBlocks(source);
}

// Moves that read only the kernel's structure (no diagnostic line), which a kernel with a variant
// per case variant takes in each variant alike.
static bool appliesPerVariant(const json& action) {
    static const std::set<std::string> structural = {"multi_core", "double_buffer", "tile_from_ub", "precise_sync", "align_tail",
                                                     "replace_datacopy_pad"};
    const std::string type = action.value("type", "");
    return type != "transform" || structural.count(action.value("name", ""));
}

std::optional<BuiltinPolicy::Move> BuiltinPolicy::apply(const std::string& source, const json& action,
                                                       const eval::Evaluation* parent, const npu::DeviceProfile* device,
                                                       std::string* why, bool checkFeasible) {
    auto fail = [&](std::string reason) -> std::optional<Move> {
        if (why) *why = std::move(reason);
        return std::nullopt;
    };
    if (!action.is_object() || !action.contains("type") || !action["type"].is_string()) return fail("not an action object");
    const std::string type = action.value("type", "");
    const std::string name = action.contains("name") && action["name"].is_string() ? action["name"].get<std::string>() : "";
    if (appliesPerVariant(action))
        if (auto variants = CaseVariants::split(source)) {
            // A kernel with a variant per case variant: the move applies to each as to a file of its own.
            CaseVariants out = *variants;
            std::optional<Move> first;
            for (size_t i = 0; i < variants->blocks.size(); ++i) {
                auto m = apply(variants->file(i), action, parent, device, why, checkFeasible);
                if (!m) return std::nullopt;
                const size_t end = m->source.find(CaseVariants::kMarker);
                const size_t cut = end == std::string::npos ? end : m->source.find('\n', end);
                if (cut == std::string::npos) return fail(name + " refused: it moved the variants' marker line");
                const std::string head = m->source.substr(0, cut + 1);
                if (i > 0 && head != out.head) return fail(name + " refused: it changes the shared part differently per variant");
                out.head = head;
                out.blocks[i].second = m->source.substr(cut + 1);
                if (!first) first = std::move(m);
            }
            first->source = out.join();
            first->description += " (every case variant)";
            return first;
        }
    if (type == "transform") {
        if (name == "insert_barrier" || name == "add_sync") {
            const auto* race = firstRaceError(parent);
            if (!race || race->line <= 0) return fail("no race diagnostic with a line");
            return Move{insertBarrier(source, race->line), "PipeBarrier<PIPE_ALL> before line " + std::to_string(race->line),
                        action, 0, 0.0};
        }
        const auto* def = transforms::find(name);
        if (!def) return fail("unknown transform '" + name + "'");
        transforms::Result r = def->run(transforms::Input{source, device, parent, action});
        if (!r.source || *r.source == source) return fail(name + " refused: " + (r.refusal.empty() ? "no change" : r.refusal));
        if (std::string broken = checkFeasible ? brokenLaunchContract(source, *r.source) : ""; !broken.empty())
            return fail(name + " refused: " + broken);
        return Move{*r.source, r.description, action, 0, 0.0};
    }
    auto t = knobNamed(source, name);
    if (!t) return fail("no knob named '" + name + "'");
    std::optional<long long> v;
    if (type == "set_tunable" || type == "set_constant") v = resolveValue(*t, action.value("value", json()), device);
    else if (type == "scale_tunable") v = action.contains("factor") && action["factor"].is_number() ? scaled(*t, action["factor"].get<double>()) : std::nullopt;
    else if (type == "step_tunable") v = step(*t, action.value("direction", "up") != "down");
    else return fail("unknown action type '" + type + "'");
    if (!v || *v == t->value || *v <= 0) return fail("no new value for " + t->constant);
    std::string out = setTunable(source, *t, *v);
    if (out == source) return fail("could not rewrite " + t->constant);
    if (std::string reason = infeasibility(source, out, checkFeasible ? device : nullptr); !reason.empty() && checkFeasible)
        return fail(reason);
    return Move{out, t->key + " " + std::to_string(t->value) + " -> " + std::to_string(*v), action, 0, 0.0};
}

std::vector<BuiltinPolicy::Move> BuiltinPolicy::candidates(const PolicyContext& ctx) {
    std::set<std::string> tried(ctx.triedMoves.begin(), ctx.triedMoves.end());
    std::set<std::string> seen;
    const bool repair = ctx.stage == memory::Stage::Repair;
    std::vector<Move> memoryMoves, fallback;
    // Optimisation never repeats a source; a repair may return to one (that is a revert).
    // A memory entry's knob action is applied as written (its allowed set still holds): what it
    // does, good or harmful, is what its learned value must reflect. The policy's own fallback
    // proposes only what it can tell fits the device.
    auto consider = [&](std::vector<Move>& into, const json& action, int64_t id, double score, double q = 0.0) {
        // The policy's own fallback does not offer a move that changes only the launch count (a
        // block_dim knob on a kernel that never asks its block index: every core would redo the whole
        // tensor); a memory entry's action is applied as written, so that what it does, good or wasted,
        // is what its learned value reflects.
        if (id == 0 && launchCountOnly(ctx.parentSource, action)) return;
        auto m = apply(ctx.parentSource, action, ctx.parentEvaluation, ctx.device, nullptr, id == 0);
        if (!m || m->source == ctx.parentSource) return;
        const std::string key = sourceKey(m->source);
        if ((!repair && tried.count(key)) || seen.count(key)) return;
        seen.insert(key);
        m->experienceId = id;
        m->score = score;
        m->q = q;
        into.push_back(*m);
    };
    std::vector<const memory::ScoredExperience*> byScore;
    for (const auto& r : ctx.retrieved) byScore.push_back(&r);
    std::stable_sort(byScore.begin(), byScore.end(), [](auto* a, auto* b) { return a->score > b->score; });
    for (const auto* r : byScore) consider(memoryMoves, r->experience.action, r->experience.id, r->score, r->q);
    if (repair) {
        for (const auto& kind : repair::failureKinds(ctx.parentEvaluation))
            for (const auto& a : repair::actionsFor(kind)) consider(fallback, a, 0, 0.0);
    } else {
        for (const auto& a : optimiseFallback(ctx.parentSource, ctx.runSeed)) consider(fallback, a, 0, 0.0);
    }
    // A kind of fallback move that already failed to gain in this run ("double buffering" on a
    // kernel where it changed nothing) goes after the others: demoted, not dropped, since it may
    // pay off once other moves have changed the kernel.
    std::map<int, uint64_t> cyclesOf;
    for (const auto& h : ctx.history)
        if (h.correct) cyclesOf[h.iteration] = h.cycles;
    std::set<std::string> useless;
    for (const auto& h : ctx.history)
        if (h.stage == memory::Stage::Optimize && h.parent >= 0 && cyclesOf.count(h.parent) && (!h.correct || h.cycles >= cyclesOf[h.parent]))
            useless.insert(moveKind(h.move));
    std::stable_partition(fallback.begin(), fallback.end(), [&](const Move& m) { return !useless.count(moveKind(m.description)); });
    // Value floor: an entry whose learned value for this stage is negative has, on balance, made
    // kernels worse when it was adopted. Its move is still possible but comes after the policy's
    // own fallback, so what the memory learned decides whether it is tried (issue 12).
    auto distrusted = std::stable_partition(memoryMoves.begin(), memoryMoves.end(), [](const Move& m) { return m.q >= 0.0; });
    std::vector<Move> late(std::make_move_iterator(distrusted), std::make_move_iterator(memoryMoves.end()));
    memoryMoves.erase(distrusted, memoryMoves.end());
    memoryMoves.insert(memoryMoves.end(), fallback.begin(), fallback.end());
    memoryMoves.insert(memoryMoves.end(), late.begin(), late.end());
    return memoryMoves;
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
        if (!d.ok && !ctx.retrieved.empty()) {
            // Memory advises; it never makes a draft impossible. Advice the composer cannot follow
            // here (an idiom for another device, a skeleton parameter that does not fit) is set
            // aside with a note, and the draft is composed from the policy's own defaults.
            DraftResult plain = composeDraft(*ctx.task, *ctx.device, {});
            if (plain.ok) {
                plain.rationale = "The retrieved draft advice could not be followed here (" + d.error +
                                  "); drafted without it.\n" + plain.rationale;
                d = std::move(plain);
            }
        }
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
    auto moves = candidates(ctx);
    if (moves.empty()) {
        p.exhausted = true;
        p.error = inferKnobs(ctx.parentSource).empty()
                      ? "no knob, transform or repair applies to this kernel (no constant sizes tiles, buffers or blocks)"
                      : "no untried move applies to this kernel";
        return p;
    }
    // epsilon-exploration: a uniformly random applicable move, reproducible from the iteration's seed.
    size_t pick = 0;
    bool explored = false;
    if (ctx.epsilon > 0 && moves.size() > 1) {
        std::mt19937_64 rng(ctx.seed);
        if (std::uniform_real_distribution<double>(0.0, 1.0)(rng) < ctx.epsilon) {
            pick = std::uniform_int_distribution<size_t>(0, moves.size() - 1)(rng);
            explored = true;
        }
    }
    const Move& m = moves[pick];
    p.ok = true;
    p.source = m.source;
    // If this move does not gain, the next call from the same parent takes the next move in
    // order, except that the fallback moves of its kind are then demoted (candidates()).
    for (size_t k = 0; k < moves.size(); ++k) {
        const bool demoted = !moves[k].experienceId && moveKind(moves[k].description) == moveKind(m.description);
        if (k != pick && !demoted) {
            p.likelyNext = moves[k].source;
            break;
        }
    }
    p.move = m.description;
    p.action = m.action;
    if (m.experienceId) p.adoptedIds.push_back(m.experienceId);
    std::ostringstream why;
    why << (explored ? "Explored (epsilon " + std::to_string(ctx.epsilon) + "): " : "");
    if (m.experienceId) why << "Applied the action of experience #" << m.experienceId << " (score " << m.score << "): " << m.description;
    else why << "Fallback move: " << m.description;
    why << " [" << moves.size() << " applicable move(s)]";
    p.rationale = why.str();
    return p;
}

std::optional<Lesson> BuiltinPolicy::distill(const PolicyContext& ctx, const PolicyProposal& proposal,
                                             const eval::Evaluation& before, const eval::Evaluation& after) {
    if (!proposal.action.is_object()) return std::nullopt;
    Lesson l;
    const std::string category = ctx.task ? ctx.task->category : "";
    if (ctx.stage == memory::Stage::Repair) {
        auto kinds = repair::failureKinds(&before);
        const std::string kind(kinds.empty() ? toolchain::DiagnosticKind::nameOf(toolchain::DiagnosticKind::WrongResult)
                                              : kinds.front().name());
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
    l.action = proposal.action;  // the executed action, so the learned entry can be applied again
    std::string name = proposal.action.value("name", "");
    if (!name.empty() && proposal.action.value("type", "") != "transform") {
        l.evidencePattern = name;
        // A knob with a role is remembered by its role ("@tile"): the lesson then applies to
        // another kernel whose tile constant has another name.
        if (name[0] != '@')
            if (auto t = knobNamed(ctx.parentSource, name); t && !t->role.empty()) l.action["name"] = "@" + t->role;
    }
    return l;
}

} // namespace sage::agent
