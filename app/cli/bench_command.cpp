// `sage bench`: runs the agent over a split and reports the metrics of BenchReport; and the
// memory experiment of issue 12:
//   --memory-mode M[,M...]   one or several modes; each (mode, seed) starts from a fresh database
//   --seed-pack FILE         ... seeded with this pack (default resources/memory/seed.jsonl)
//   --seed S --repeat R      seeds S .. S+R-1 (retrieval ε draws and the policy's choices)
//   --epsilon E              ε-exploration of retrieval (and of the policy's choice)
//   --learn-on train         learn on that split first, then measure with learning frozen
//   --learn-limit N          ... on its first N tasks in an order seeded by --seed (a learning curve)
//   --shuffle-rewards        the negative control: memory is credited with shuffled outcomes
//   --seed-pack none         each fresh database starts empty (the data-scarce start)
// Rows are paired by task × seed; with several modes the report adds, for each mode, the paired
// differences against `adoption` with bootstrap 95 % intervals, the trap adoptions per run and the
// Q gap useful − trap after learning (entries of a trap pack are recognised by their provenance
// note "experiment trap; twin of TITLE"). `sage bench compare A.json B.json` pairs two reports,
// `sage bench merge` joins shard reports.
#include "cli/BenchReport.h"
#include "cli/agent_db.h"
#include "cli/command_registry.h"
#include "cli/llm_options.h"
#include "cli/output_file.h"
#include "cli/task_options.h"

#include "sage_agent/AgentLoop.h"
#include "sage_agent/FaultInjector.h"
#include "sage_eval/CannScore.h"
#include "sage_eval/Evaluator.h"
#include "cli/cann_bench_cli.h"
#include "sage_memory/AdoptionLedger.h"
#include "sage_toolchain/ToolPaths.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <future>
#include <iostream>
#include <map>
#include <random>
#include <set>
#include <unistd.h>

namespace sage::cli {
using nlohmann::json;
namespace {

struct BenchOptions {
    TaskOptions tasks;
    std::string split = "test", policy = "builtin", modes = "adoption", learnOn, shard, db, out, seedPack;
    std::string device = "ascend910b1-sim", only;
    std::string kernelsDir;  // --kernels: start each task from DIR/<task>.cpp when present
    std::string arm;  // the name the report groups and pairs these runs under (default: the memory mode)
    std::string phase = "all";  // all | learn | measure (a shared --db: learning once, shards measure)
    int repeats = 1, budget = 12;
    int learnLimit = -1;  // learn on this many tasks of the --learn-on split (seeded order); -1 = all
    bool shuffleRewards = false;
    uint64_t seed = 0;
    double epsilon = 0.0;
    bool json = false, injectFaults = false, noSpeculate = false;
    LlmOptions llm;
};

std::vector<std::string> splitList(const std::string& text) {
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find(',', start);
        if (end == std::string::npos) end = text.size();
        if (end > start) out.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return out;
}

// What the trap pack marks: trap ids, and per trap the id of its useful twin.
struct TrapMap {
    std::set<int64_t> traps, decoys;
    std::map<int64_t, int64_t> twinOf;  // trap -> useful
};

TrapMap trapsIn(memory::ExperienceStore& store) {
    TrapMap m;
    std::map<std::string, int64_t> byTitle;
    for (const auto& s : store.list()) byTitle[s.title] = s.id;
    for (const auto& s : store.list()) {
        for (const auto& p : store.get(s.id).provenance) {
            if (p.note.rfind("experiment decoy", 0) == 0) m.decoys.insert(s.id);
            const std::string marker = "experiment trap; twin of ";
            if (p.note.rfind(marker, 0) != 0) continue;
            m.traps.insert(s.id);
            if (auto it = byTitle.find(p.note.substr(marker.size())); it != byTitle.end()) m.twinOf[s.id] = it->second;
        }
    }
    return m;
}

// Q gap after learning: mean Q (at the entry's own stage) of the useful twins minus that of the
// traps, over all pairs and over the pairs the learning phase touched (either twin's value was
// updated at least once). A pair never adopted (or, under all_retrieved, never retrieved) keeps
// 0 - 0 whatever the credit rule is: it measures how much of the pack the train tasks reach, not
// what the rule learned, so the report shows both, with the per-pair values.
json qGap(memory::ExperienceStore& store, const TrapMap& m) {
    // What adopting an entry did while learning: how many resolved retrievals declared or evidenced
    // it, and their mean reward. A trap that does not make kernels worse when it is adopted is not a
    // trap; the report shows this next to the learned values so the pack itself can be checked.
    auto outcomesOf = [&](int64_t id) {
        int adoptions = 0, gained = 0;
        double rewards = 0.0;
        for (const auto& r : store.ledger().retrievalsOf(id)) {
            if (!r.reward || !(r.declared.value_or(false) || r.evidenced.value_or(false))) continue;
            ++adoptions;
            gained += *r.reward > 0.0;
            rewards += *r.reward;
        }
        return json{{"adoptions", adoptions}, {"mean_reward", adoptions ? json(rewards / adoptions) : json(nullptr)},
                    {"gained", gained}};
    };
    auto statsOf = [&](int64_t id) {
        const auto e = store.get(id);
        const auto stage = e.stage == memory::Stage::Any ? memory::Stage::Optimize : e.stage;
        return std::pair{e.title, store.stats(id).at(stage)};
    };
    if (m.twinOf.empty()) return nullptr;
    double sumUseful = 0, sumTrap = 0, sumTouched = 0;
    int touched = 0;
    json detail = json::array();
    for (const auto& [t, u] : m.twinOf) {
        const auto [trapTitle, trap] = statsOf(t);
        const auto [usefulTitle, useful] = statsOf(u);
        sumUseful += useful.q;
        sumTrap += trap.q;
        // Touched: credited at least once (all_retrieved updates Q without counting an adoption).
        const bool wasTouched = useful.adopted + trap.adopted > 0 || useful.q != 0.0 || trap.q != 0.0;
        if (wasTouched) {
            ++touched;
            sumTouched += useful.q - trap.q;
        }
        detail.push_back({{"useful", usefulTitle}, {"trap", trapTitle}, {"useful_q", useful.q}, {"trap_q", trap.q},
                          {"useful_adopted", useful.adopted}, {"trap_adopted", trap.adopted}, {"touched", wasTouched},
                          {"useful_outcomes", outcomesOf(u)}, {"trap_outcomes", outcomesOf(t)}});
    }
    const double n = double(m.twinOf.size());
    return {{"useful_mean_q", sumUseful / n}, {"trap_mean_q", sumTrap / n}, {"gap", (sumUseful - sumTrap) / n},
            {"pairs", m.twinOf.size()}, {"touched_pairs", touched},
            {"touched_gap", touched ? json(sumTouched / touched) : json(nullptr)}, {"per_pair", detail}};
}

struct ReferenceCycles {
    std::map<std::string, uint64_t> baseline, expert;
};

uint64_t evaluateOnce(const eval::Evaluator& evaluator, const eval::Task& task, const std::string& source,
                      const std::string& device) {
    if (source.empty()) return 0;
    eval::EvalRequest req;
    req.source = source;
    req.deviceId = device;
    auto ev = evaluator.evaluate(task, req);
    return ev.success() ? ev.profile.totalCycles : 0;
}

// A CANN Bench task's score as CANN Bench computes it, of the kernel the agent hands back: its best
// verified iteration, else the evaluated iteration with the most accurate cases (CANN Bench scores
// every accurate case of a kernel that does not pass them all).
json benchScore(const eval::Task& task, const std::vector<agent::IterationRecord>& its) {
    const agent::IterationRecord* pick = nullptr;
    auto accurate = [](const agent::IterationRecord& it) {
        int n = 0;
        for (const auto& c : it.evaluation->verify.cases) n += c.pass;
        return n;
    };
    for (const auto& it : its) {
        if (!it.evaluation) continue;
        if (it.correct && (!pick || !pick->correct || it.cycles < pick->cycles)) pick = &it;
        else if (!pick || (!pick->correct && accurate(it) > accurate(*pick))) pick = &it;
    }
    if (!pick) {
        eval::Evaluation none;
        return eval::scoreBenchEvaluation(task, none);
    }
    json score = eval::scoreBenchEvaluation(task, *pick->evaluation);
    score["iteration"] = pick->index;
    return score;
}

// One measured run: the loop, then the metrics from what it stored (RunStore), so nothing depends
// on counters the loop may or may not keep.
json measure(const eval::Task& task, const eval::Evaluator& evaluator, agent::RunStore& runs,
             memory::ExperienceStore* mem, const agent::AgentSettings& s, ReferenceCycles& refs, const TrapMap& traps,
             const std::optional<agent::InjectedFault>& fault, const std::string& startKernel = {}) {
    // The baseline's and the expert's cycles do not depend on the agent: they are measured on a
    // second thread while the loop runs, filling the core its compile phases leave idle.
    std::future<std::pair<uint64_t, uint64_t>> referenceRuns;
    if (!refs.baseline.count(task.name) || !refs.expert.count(task.name))
        referenceRuns = std::async(std::launch::async, [&] {
            return std::pair{evaluateOnce(evaluator, task, task.baselineSource, s.device),
                             evaluateOnce(evaluator, task, task.tunedSource, s.device)};
        });
    agent::AgentLoop loop(evaluator, agent::makePolicy(s), s);
    if (fault) loop.setStartCandidate(fault->source, "the draft with fault " + fault->name);
    else if (!startKernel.empty()) loop.setStartCandidate(startKernel, "the engineer's kernel (--kernels)");
    auto sum = loop.run(task, runs, mem);
    auto its = runs.iterations(sum.runId);
    if (referenceRuns.valid()) std::tie(refs.baseline[task.name], refs.expert[task.name]) = referenceRuns.get();
    const uint64_t baseline = refs.baseline[task.name], expert = refs.expert[task.name];
    bool compiled = false;
    int candidates = 0, candCompiled = 0, candCorrect = 0, repairs = 0, repaired = 0, trapAdoptions = 0, trapApplied = 0;
    uint64_t best = 0;
    json trajectory = json::array(), trapsTaken = json::array();
    std::map<int, std::string> sourceOf;
    for (const auto& it : its) {
        sourceOf[it.index] = it.source;
        const bool evaluated = it.evaluation.has_value();
        const bool ok = evaluated && it.evaluation->compile.ok;
        if (evaluated) {
            ++candidates;
            candCompiled += ok;
            candCorrect += it.correct;
        }
        compiled |= ok;
        if (it.stage == memory::Stage::Repair && evaluated) {
            ++repairs;
            repaired += it.correct;
        }
        if (it.correct && it.cycles && (!best || it.cycles < best)) best = it.cycles;
        trajectory.push_back(best);
        // Trap adoption: a trap entry retrieved here and declared or evidenced by this candidate.
        if (mem && !traps.traps.empty() && !it.retrievals.empty() && evaluated) {
            std::vector<memory::ScoredExperience> shown;
            for (const auto& r : it.retrievals)
                if (traps.traps.count(r.id)) {
                    memory::ScoredExperience e;
                    e.experience = mem->get(r.id);
                    shown.push_back(e);
                }
            if (shown.empty()) continue;
            std::vector<int64_t> declared;
            for (const auto& a : it.adoptions)
                if (a.declared) declared.push_back(a.id);
            const std::string parent = sourceOf.count(it.parent) ? sourceOf[it.parent] : std::string();
            bool adopted = false, applied = false;
            const auto trapSignals = memory::AdoptionLedger::assess(shown, declared, parent, it.source);
            for (std::size_t k = 0; k < trapSignals.size(); ++k) {
                const auto& sig = trapSignals[k];
                adopted |= sig.declared || sig.evidenced;
                applied |= sig.evidenced;
                if (sig.declared || sig.evidenced)
                    trapsTaken.push_back({{"iteration", it.index}, {"title", shown[k].experience.title},
                                          {"declared", sig.declared}, {"evidenced", sig.evidenced}});
            }
            trapAdoptions += adopted;
            trapApplied += applied;
        }
    }
    const bool correct = sum.firstCorrectIteration >= 0;
    const double bestCycles = double(sum.bestCycles);
    json row = {{"task", task.name},
            {"category", task.category},
            {"split", task.split},
            {"seed", s.seed},
            {"memory_mode", std::string(memory::toString(s.memoryMode))},
            {"run_id", sum.runId},
            {"compiled", compiled},
            {"correct", correct},
            {"iterations", sum.iterations},
            {"candidates", candidates},
            {"candidates_compiled", candCompiled},
            {"candidates_correct", candCorrect},
            {"repair_iterations", repairs},
            {"repairs_succeeded", repaired},
            {"trap_adoptions", trapAdoptions},
            {"trap_applied", trapApplied},
            {"traps_taken", trapsTaken},
            {"baseline_cycles", baseline},
            {"expert_cycles", expert},
            {"first_correct_cycles", sum.firstCorrectCycles},
            {"best_cycles", sum.bestCycles},
            {"speedup_vs_baseline", correct && baseline && bestCycles > 0 ? double(baseline) / bestCycles : 0.0},
            {"speedup_vs_expert", correct && expert && bestCycles > 0 ? double(expert) / bestCycles : 0.0},
            {"speedup_vs_first_correct", correct ? sum.speedupVsFirstCorrect : 0.0},
            {"roofline_fraction", sum.bestRooflineFraction},
            {"iterations_to_first_correct", correct ? sum.firstCorrectIteration + 1 : -1},
            {"iterations_to_0_8_roofline", sum.iterationsToTargetRoofline >= 0 ? sum.iterationsToTargetRoofline + 1 : -1},
            {"trajectory", trajectory},
            {"stop_reason", sum.stopReason},
            {"injected_fault", fault ? json(fault->name) : json(nullptr)},
            {"fault_kind", fault ? json(fault->expectedKind) : json(nullptr)},
            {"fault_repaired", fault && correct && sum.firstCorrectIteration > 0},
            {"started_from_kernel", !startKernel.empty()}};
    if (task.bench) row["cann"] = benchScore(task, its);
    return row;
}

void printRows(const json& rows) {
    std::printf("%-16s %-14s %5s %7s %11s %11s %11s %8s %8s %8s %6s %6s\n", "task", "mode", "seed", "correct", "first cyc",
                "best cyc", "expert cyc", "x first", "x base", "x expert", "traps", "it95");
    for (const auto& r : rows)
        std::printf("%-16s %-14s %5llu %7s %11llu %11llu %11llu %8.2f %8.2f %8.2f %6d %6d\n", r.value("task", "").c_str(),
                    r.value("memory_mode", "").c_str(), (unsigned long long)r.value("seed", uint64_t(0)),
                    r.value("correct", false) ? "yes" : "NO", (unsigned long long)r.value("first_correct_cycles", uint64_t(0)),
                    (unsigned long long)r.value("best_cycles", uint64_t(0)), (unsigned long long)r.value("expert_cycles", uint64_t(0)),
                    r.value("speedup_vs_first_correct", 0.0), r.value("speedup_vs_baseline", 0.0),
                    r.value("speedup_vs_expert", 0.0), r.value("trap_adoptions", 0), r.value("iterations_to_95_best", 0));
}

json readReport(const std::string& file) {
    try {
        std::ifstream in(file);
        if (!in) throw std::runtime_error("cannot be opened");
        json j = json::parse(in, nullptr, true, false);
        if (!j.is_object() || !j.contains("tasks") || !j["tasks"].is_array()) throw std::runtime_error("has no \"tasks\" array");
        return j;
    } catch (const std::exception& e) {
        std::cerr << "sage: error: " << file << " is not a bench report (" << e.what()
                  << "); write one with `sage bench ... --out FILE`\n";
        throw CLI::RuntimeError(2);
    }
}

// The tasks of the learning phase: the --learn-on split, all of it in suite order, or with a limit
// the first N in an order drawn from the seed. The draw ranks every task of the split, so for one
// seed the first 5 are among the first 11: a learning curve adds experience, it does not swap it.
template <class InSplit>
std::vector<const eval::Task*> learningOrder(const std::vector<eval::Task>& tasks, const InSplit& inSplit,
                                             const std::string& split, int limit, uint64_t seed) {
    std::vector<const eval::Task*> out;
    for (const auto& t : tasks)
        if (inSplit(t, split)) out.push_back(&t);
    if (limit < 0) return out;
    std::mt19937_64 rng(seed * 7919ull + 1ull);
    for (std::size_t i = out.size(); i > 1; --i) std::swap(out[i - 1], out[static_cast<std::size_t>(rng() % i)]);
    if (out.size() > static_cast<std::size_t>(limit)) out.resize(static_cast<std::size_t>(limit));
    return out;
}

void removeDb(const std::string& path) {
    std::error_code ec;
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix, ec);
}

// The arm a row belongs to: its --arm name, or its memory mode (reports from before arms existed).
std::string armOf(const json& row) { return row.value("arm", row.value("memory_mode", std::string("?"))); }

// Fills the derived parts of a report from its rows: iterations to 95 % of the best known cycles,
// the aggregate, per-arm aggregates and the paired comparisons of every arm against `adoption`
// (or the first arm) and against `off` when the report has it (the no-memory control). Used by a
// bench run and by `merge`, so merged shards, seeds and arms read like one run.
void summarise(json& report) {
    const int budget = report.value("budget", 12);
    json& rows = report["tasks"];
    BenchReport::annotateBestKnown(rows, budget);
    report["aggregate"] = BenchReport::aggregate(rows, budget);
    std::map<std::string, json> rowsOf;
    for (const auto& r : rows) rowsOf[armOf(r)].push_back(r);
    json perMode = json::object();
    for (auto& [m, rs] : rowsOf) perMode[m] = BenchReport::aggregate(rs, budget);
    std::vector<std::string> references;
    if (!rowsOf.empty()) references.push_back(rowsOf.count("adoption") ? "adoption" : rowsOf.begin()->first);
    if (rowsOf.count("off") && references.front() != "off") references.push_back("off");
    for (const auto& reference : references) {
        json comparisons = json::array();
        for (auto& [m, rs] : rowsOf)
            if (m != reference)
                comparisons.push_back(BenchReport::paired(rowsOf[reference], rs, reference, m, report.value("seed", uint64_t(0))));
        report["paired_vs_" + reference] = comparisons;
    }
    report["modes"] = perMode;
}

void printReport(const json& report) {
    printRows(report["tasks"]);
    printBenchScores(report["tasks"]);
    for (auto& [m, a] : report["modes"].items()) BenchReport::printAggregateLine(m, a);
    const json allGaps = report.value("q_gap_after_learning", json::object());
    for (const auto& [m, gaps] : allGaps.items())
        for (const auto& g : gaps) {
            std::printf("Q gap useful - trap after learning (%s): %+.3f over %d pairs (useful %.3f, trap %.3f)", m.c_str(),
                        g["gap"].get<double>(), g.value("pairs", 0), g["useful_mean_q"].get<double>(),
                        g["trap_mean_q"].get<double>());
            if (g.value("touched_gap", json()).is_number())
                std::printf("; %+.3f over the %d pairs learning touched", g["touched_gap"].get<double>(), g["touched_pairs"].get<int>());
            std::printf("\n");
        }
    for (const auto& [key, list] : report.items())
        if (key.rfind("paired_vs_", 0) == 0)
            for (const auto& c : list) BenchReport::printPaired(c);
}

// The options of a bench run (not of `compare` or `merge`).
void addRunOptions(CLI::App* cmd, BenchOptions& o) {
    o.tasks.add(cmd);
    cmd->add_option("--split", o.split, "train | test | all")->check(CLI::IsMember({"train", "test", "all"}));
    cmd->add_option("--policy", o.policy, "builtin | llm")->check(CLI::IsMember({"builtin", "llm"}));
    cmd->add_option("--memory-mode", o.modes, "off | similarity | all_retrieved | adoption, or a comma-separated list");
    cmd->add_option("--learn-on", o.learnOn, "Learn on this split first (train), then measure with learning frozen");
    cmd->add_option("--repeat,--repeats", o.repeats, "Seeds per task: --seed .. --seed + R - 1")->check(CLI::Range(1, 100));
    cmd->add_option("--seed", o.seed, "First seed (retrieval exploration and the policy's choices)");
    cmd->add_option("--epsilon", o.epsilon, "ε-exploration in [0, 1]")->check(CLI::Range(0.0, 1.0));
    cmd->add_option("--seed-pack", o.seedPack,
                    "JSON Lines pack each fresh database starts from (default: the seed pack; none: an empty memory)")
        ->check(CLI::ExistingFile | CLI::IsMember({"none"}));
    cmd->add_option("--learn-limit", o.learnLimit,
                    "Learn on only the first N tasks of the --learn-on split, in an order seeded by the seed "
                    "(nested: the first 5 of a seed are among its first 11)")
        ->check(CLI::Range(0, 100000));
    cmd->add_option("--arm", o.arm,
                    "Name these runs' arm in the report (default: the memory mode), so that variants of one mode "
                    "(a learning-curve point, a control) pair with other reports' arms after `sage bench merge`");
    cmd->add_flag("--shuffle-rewards", o.shuffleRewards,
                  "Negative control: credit memory with the outcome of a randomly drawn other iteration while learning");
    cmd->add_option("--only", o.only, "Comma-separated task names: run only these (in the learning and measured splits)");
    cmd->add_option("--budget", o.budget, "Iterations per run")->check(CLI::Range(1, 1000));
    cmd->add_option("--shard", o.shard, "i/n: run only tasks whose index modulo n is i (0-based)");
    cmd->add_option("--db", o.db, "Database file or postgresql:// URL to use and keep (one mode, one seed only; "
                                  "default: fresh temporary ones)");
    cmd->add_option("--phase", o.phase,
                    "all | learn | measure: with a shared --db, `learn` runs only the --learn-on phase (once), "
                    "`measure` only the measured split, frozen, on what `learn` stored (scripts/slurm/)")
        ->check(CLI::IsMember({"all", "learn", "measure"}));
    cmd->add_option("--device", o.device, "Device profile id");
    cmd->add_option("--out", o.out, "Also write the JSON report to this file");
    o.llm.add(cmd);
    cmd->add_option("--kernels", o.kernelsDir,
                    "Start each task from DIR/<task>.cpp when it exists (your own kernels; the policy drafts the others)")
        ->check(CLI::ExistingDirectory);
    cmd->add_flag("--inject-faults", o.injectFaults,
                  "Start each measured run from the built-in draft with one injected fault (measures the repair stage)");
    cmd->add_flag("--no-speculate", o.noSpeculate,
                  "Do not compile the likely next candidate while one is evaluated (same results, less CPU)");
    cmd->add_flag("--json", o.json, "Print the JSON report");
}

[[noreturn]] void usageError(const std::string& message) {
    std::cerr << "sage: error: " << message << "\n";
    throw CLI::RuntimeError(2);
}

// What the options ask for, checked before any work: the shard, the memory modes, the seed pack.
struct BenchPlan {
    int shardI = 0, shardN = 1;
    std::vector<memory::MemoryMode> modes;
    std::string pack;  // the pack each fresh database starts from, or "none"
};

BenchPlan planBench(const BenchOptions& o) {
    BenchPlan plan;
    if (!o.shard.empty() && std::sscanf(o.shard.c_str(), "%d/%d", &plan.shardI, &plan.shardN) != 2)
        usageError("--shard takes i/n, e.g. 0/4");
    if (plan.shardN < 1 || plan.shardI < 0 || plan.shardI >= plan.shardN)
        usageError("--shard " + o.shard + ": need 0 <= i < n");
    for (const auto& m : splitList(o.modes)) {
        auto mode = memory::parseEnum<memory::MemoryMode>(m);
        if (!mode) usageError("--memory-mode " + m + ": use off, similarity, all_retrieved or adoption");
        plan.modes.push_back(*mode);
    }
    if (plan.modes.empty()) plan.modes.push_back(memory::kDefaultMemoryMode);
    if (!o.db.empty() && (plan.modes.size() > 1 || o.repeats > 1))
        usageError("--db keeps one database: use it with one memory mode and --repeat 1");
    if (o.phase != "all" && (o.db.empty() || o.learnOn.empty() || !memory::retrieves(plan.modes.front())))
        usageError("--phase " + o.phase + " splits one learning experiment over jobs: give --db (the shared memory), "
                   "--learn-on and a memory mode that learns (adoption, all_retrieved, similarity)");
    plan.pack = o.seedPack.empty() ? toolchain::ToolPaths::fromEnvironment().resources + "/memory/seed.jsonl" : o.seedPack;
    return plan;
}

// One bench run: for each memory mode and seed a database (fresh unless --db), an optional learning
// phase on --learn-on, then the measured split; the rows and Q gaps add up to the report.
class BenchRun {
public:
    BenchRun(const BenchOptions& o, BenchPlan plan)
        : o_(o), plan_(std::move(plan)), set_(o.tasks.load()), evaluator_(eval::Evaluator::fromEnvironment()) {
        const auto onlyList = splitList(o.only);
        only_.insert(onlyList.begin(), onlyList.end());
        for (const auto& name : only_) o.tasks.find(set_, name);  // an unknown name is an error listing the known ones
        requireGoldenPython(set_);  // CANN Bench's goldens need PyTorch: say so before any work
    }

    void runAll() {
        for (const auto mode : plan_.modes)
            for (int r = 0; r < o_.repeats; ++r) runSeed(mode, o_.seed + uint64_t(r));
    }

    json report() const {
        json report = {{"policy", o_.policy}, {"memory_mode", o_.modes}, {"split", o_.split}, {"learn_on", o_.learnOn},
                       {"learn_limit", o_.learnLimit}, {"shuffle_rewards", o_.shuffleRewards},
                       {"budget", o_.budget}, {"repeats", o_.repeats}, {"seed", o_.seed}, {"epsilon", o_.epsilon},
                       {"seed_pack", plan_.pack}, {"shard", o_.shard}, {"device", o_.device}, {"inject_faults", o_.injectFaults}, {"tasks", rows_},
                       {"q_gap_after_learning", qGaps_}};
        summarise(report);
        if (json cann = summariseBenchScores(rows_); !cann.is_null()) report["cann_bench"] = cann;
        return report;
    }

private:
    bool inSplit(const eval::Task& t, const std::string& split) const {
        return (split == "all" || t.split == split) && (only_.empty() || only_.count(t.name));
    }

    agent::AgentSettings settingsFor(memory::MemoryMode mode, uint64_t seed) const {
        agent::AgentSettings s;
        s.policy = o_.policy;
        s.budget = o_.budget;
        s.memoryMode = mode;
        s.device = o_.device;
        s.epsilon = o_.epsilon;
        s.seed = seed;
        s.speculate = !o_.noSpeculate;
        o_.llm.apply(s.llm);
        return s;
    }

    // What the learning phase depends on: a `measure` job checks that the shared memory was filled
    // by a `learn` job with the same settings, so every shard measures the same memory.
    json learnedSettings(const std::string& modeName, uint64_t seed) const {
        return {{"learn_on", o_.learnOn}, {"only", o_.only}, {"seed", seed},
                {"epsilon", o_.epsilon}, {"budget", o_.budget}, {"policy", o_.policy},
                {"device", o_.device}, {"memory_mode", modeName}, {"seed_pack", plan_.pack},
                {"learn_limit", o_.learnLimit}, {"shuffle_rewards", o_.shuffleRewards}};
    }

    // --phase measure needs the memory a matching `learn` job filled; --phase learn a memory that
    // has not learned yet.
    void checkPhase(memory::ExperienceStore* mem, const memory::Database& db, const json& learned) const {
        if (o_.phase == "measure") {
            const auto stored = mem ? mem->metadata("bench.learned") : std::nullopt;
            if (!stored || json::parse(*stored) != learned)
                usageError("--phase measure: the memory " + db.path().string() +
                           (stored ? " learned with other settings (" + *stored + ")" : " has no finished learning phase") +
                           ". Run `sage bench --phase learn` with the same options first (scripts/slurm/ submits it as "
                           "the job the shards depend on).");
        } else if (o_.phase == "learn" && mem && mem->metadata("bench.learned")) {
            usageError("--phase learn: the memory " + db.path().string() +
                       " has learned already; learning again would count every lesson twice. Use a new database (or "
                       "schema: options=-csearch_path%3DNAME in the URL).");
        }
    }

    // Every mode that retrieves learns lessons (under similarity without values); the measured
    // split then runs with the learned memory frozen.
    void learn(agent::AgentSettings& s, agent::RunStore& runs, memory::ExperienceStore& mem, const std::string& modeName,
               const json& learned) {
        const auto shuffle = o_.shuffleRewards ? std::make_shared<agent::RewardShuffle>(s.seed) : nullptr;
        const auto inLearnSplit = [this](const eval::Task& t, const std::string& split) { return inSplit(t, split); };
        for (const eval::Task* t : learningOrder(set_.tasks, inLearnSplit, o_.learnOn, o_.learnLimit, s.seed)) {
            if (!o_.json) std::cerr << modeName << " seed " << s.seed << ": learning on " << t->name << "\n";
            agent::AgentLoop loop(evaluator_, agent::makePolicy(s), s);
            loop.setRewardShuffle(shuffle);
            loop.run(*t, runs, &mem);
        }
        s.learn = false;
        if (o_.phase == "learn") mem.setMetadata("bench.learned", learned.dump());
    }

    void measureSplit(const agent::AgentSettings& s, agent::RunStore& runs, memory::ExperienceStore* mem,
                      const TrapMap& traps, const std::string& modeName) {
        int index = 0;
        for (const auto& t : set_.tasks) {
            if (!inSplit(t, o_.split)) continue;
            if (index++ % plan_.shardN != plan_.shardI) continue;
            if (!o_.json) std::cerr << modeName << " seed " << s.seed << ": measuring " << t.name << "\n";
            // `--inject-faults`: the fault is chosen by the task's position and the seed.
            const auto fault = o_.injectFaults ? agent::faultyDraft(t, evaluator_.devices().get(s.device),
                                                                     size_t(index - 1) + size_t(s.seed))
                                               : std::nullopt;
            rows_.push_back(measure(t, evaluator_, runs, mem, s, refs_, traps, fault, startKernelFor(t)));
            rows_.back()["arm"] = o_.arm.empty() ? modeName : o_.arm;
        }
    }

    // `--kernels DIR`: the task starts from DIR/<task>.cpp when there is one (an engineer's or another
    // tool's kernel), as `sage run --kernel` does; otherwise the policy drafts.
    std::string startKernelFor(const eval::Task& t) const {
        if (o_.kernelsDir.empty()) return {};
        const std::filesystem::path file = std::filesystem::path(o_.kernelsDir) / (t.name + ".cpp");
        if (!std::filesystem::exists(file)) return {};
        std::ifstream in(file);
        return {std::istreambuf_iterator<char>(in), {}};
    }

    void runSeed(memory::MemoryMode mode, uint64_t seed) {
        const std::string modeName(memory::toString(mode));
        std::string dbPath = o_.db;
        const bool temporary = dbPath.empty();
        if (temporary)
            dbPath = (std::filesystem::temp_directory_path() /
                      ("sage-bench-" + std::to_string(::getpid()) + "-" + modeName + "-" + std::to_string(seed) + ".db"))
                         .string();
        if (temporary) removeDb(dbPath);
        auto db = openAgentDatabase(dbPath);
        agent::RunStore runs(db);
        agent::AgentSettings s = settingsFor(mode, seed);
        std::unique_ptr<memory::ExperienceStore> mem;
        TrapMap traps;
        if (memory::retrieves(mode)) {
            mem = std::make_unique<memory::ExperienceStore>(db);
            if (mem->list().empty() && plan_.pack != "none") mem->importFrom(plan_.pack);
            traps = trapsIn(*mem);
        }
        const json learned = learnedSettings(modeName, seed);
        checkPhase(mem.get(), *db, learned);
        if (o_.phase == "measure") s.learn = false;
        if (o_.phase != "measure" && !o_.learnOn.empty() && mem && o_.learnOn != o_.split) learn(s, runs, *mem, modeName, learned);
        if (o_.phase == "learn") {
            std::cerr << modeName << " seed " << seed << ": learning phase stored in " << db->path().string()
                      << "; measure with --phase measure\n";
            return;
        }
        if (mem) {
            json gap = qGap(*mem, traps);
            if (!gap.is_null()) qGaps_[modeName].push_back(gap);
        }
        measureSplit(s, runs, mem.get(), traps, modeName);
        mem.reset();
        db.reset();
        if (temporary) removeDb(dbPath);
    }

    const BenchOptions& o_;
    const BenchPlan plan_;
    const eval::TaskSet set_;
    const eval::Evaluator evaluator_;
    std::set<std::string> only_;
    ReferenceCycles refs_;
    json rows_ = json::array(), qGaps_ = json::object();
};

void runBench(const BenchOptions& o) {
    const BenchPlan plan = planBench(o);
    // Before any work: a report that cannot be written must not cost a whole bench (issue 31).
    const OutputFile out = OutputFile::prepare(o.phase == "learn" ? std::string() : o.out, "--out");
    BenchRun run(o, plan);
    run.runAll();
    if (o.phase == "learn") return;  // nothing measured: the shards report
    const json report = run.report();
    out.write(report.dump(2) + "\n");
    if (o.json) {
        std::cout << report.dump(2) << "\n";
        return;
    }
    std::cout << "policy " << o.policy << ", split " << o.split << (o.learnOn.empty() ? "" : ", learned on " + o.learnOn)
              << ", seeds " << o.seed << ".." << o.seed + uint64_t(o.repeats) - 1 << ", epsilon " << o.epsilon << ", pack "
              << plan.pack << "\n";
    printReport(report);
}

void addCompareCommand(CLI::App* cmd) {
    auto* compare = cmd->add_subcommand("compare", "Pair two bench reports by task x seed (B - A, bootstrap 95% CI)");
    auto cfiles = std::make_shared<std::vector<std::string>>();
    auto cjson = std::make_shared<bool>(false);
    compare->add_option("files", *cfiles, "A.json B.json")->required()->expected(2);
    compare->add_flag("--json", *cjson, "Print the comparison as JSON");
    compare->callback([cfiles, cjson] {
        json a = readReport((*cfiles)[0]), b = readReport((*cfiles)[1]);
        const int budget = std::max(a.value("budget", 12), b.value("budget", 12));
        // Best known cycles over both reports, so "iterations to 95 % of best" means the same in both.
        json all = a["tasks"];
        for (const auto& r : b["tasks"]) all.push_back(r);
        BenchReport::annotateBestKnown(all, budget);
        json rowsA(json::value_t::array), rowsB(json::value_t::array);
        for (std::size_t i = 0; i < all.size(); ++i) (i < a["tasks"].size() ? rowsA : rowsB).push_back(all[i]);
        // Pairs are task x seed within each memory mode present in both reports.
        std::map<std::string, std::pair<json, json>> byMode;
        for (const auto& r : rowsA) byMode[r.value("memory_mode", std::string("?"))].first.push_back(r);
        for (const auto& r : rowsB) byMode[r.value("memory_mode", std::string("?"))].second.push_back(r);
        json paired = json::array();
        for (auto& [mode, ab] : byMode)
            if (!ab.first.is_null() && !ab.second.is_null())
                paired.push_back(BenchReport::paired(ab.first, ab.second, (*cfiles)[0] + " [" + mode + "]",
                                                     (*cfiles)[1] + " [" + mode + "]", a.value("seed", uint64_t(0))));
        json out = {{"a", (*cfiles)[0]}, {"b", (*cfiles)[1]},
                    {"aggregate_a", BenchReport::aggregate(rowsA, budget)}, {"aggregate_b", BenchReport::aggregate(rowsB, budget)},
                    {"paired", paired}};
        if (*cjson) {
            std::cout << out.dump(2) << "\n";
            return;
        }
        BenchReport::printAggregateLine("A " + (*cfiles)[0], out["aggregate_a"]);
        BenchReport::printAggregateLine("B " + (*cfiles)[1], out["aggregate_b"]);
        for (const auto& p : paired) BenchReport::printPaired(p);
        if (paired.empty()) std::cout << "no memory mode is in both reports: nothing to pair\n";
    });
}

// Shard reports joined into one, as if one run had measured them all (--budget: cut short).
json mergeReports(const std::vector<std::string>& files, int budget) {
    json merged;
    json rows = json::array(), gaps = json::object();
    for (const auto& f : files) {
        json part = readReport(f);
        if (merged.is_null()) merged = part;
        for (const auto& r : part["tasks"]) rows.push_back(r);
        const json partGaps = part.value("q_gap_after_learning", json::object());  // kept alive for items()
        for (const auto& [m, list] : partGaps.items())
            for (const auto& g : list) gaps[m].push_back(g);
    }
    std::set<uint64_t> seeds;
    for (const auto& r : rows) seeds.insert(r.value("seed", uint64_t(0)));
    merged["repeats"] = seeds.size();
    merged["seed"] = seeds.empty() ? uint64_t(0) : *seeds.begin();
    if (budget > 0) {
        if (budget > merged.value("budget", 12))
            usageError("--budget " + std::to_string(budget) + " is above the budget the runs had (" +
                       std::to_string(merged.value("budget", 12)) + "): a run cannot be read beyond where it stopped");
        BenchReport::truncateToBudget(rows, budget);
        merged["budget"] = budget;
    }
    merged["tasks"] = rows;
    merged["q_gap_after_learning"] = gaps;
    merged["shard"] = "merged";
    for (auto it = merged.begin(); it != merged.end();)
        it = it.key().rfind("paired_vs_", 0) == 0 ? merged.erase(it) : std::next(it);
    summarise(merged);
    return merged;
}

void addMergeCommand(CLI::App* cmd) {
    auto* merge = cmd->add_subcommand("merge", "Merge shard reports (JSON files from --out/--json)");
    auto files = std::make_shared<std::vector<std::string>>();
    auto mjson = std::make_shared<bool>(false);
    merge->add_option("files", *files, "Shard reports")->required()->check(CLI::ExistingFile);
    merge->add_flag("--json", *mjson, "Print the merged JSON report");
    auto mbudget = std::make_shared<int>(0);
    merge->add_option("--budget", *mbudget,
                      "Report the runs as if they had stopped after this many iterations (read off their trajectories)")
        ->check(CLI::Range(1, 1000));
    merge->callback([files, mjson, mbudget] {
        const json merged = mergeReports(*files, *mbudget);
        if (*mjson) {
            std::cout << merged.dump(2) << "\n";
            return;
        }
        printReport(merged);
    });
}

} // namespace

void registerBenchCommand(CLI::App& app) {
    auto* cmd = app.add_subcommand("bench", "Run the agent over a split and report KernelBench-style metrics");
    auto o = std::make_shared<BenchOptions>();
    addRunOptions(cmd, *o);
    cmd->callback([o, cmd] {
        // CLI11 runs this callback also when `compare` or `merge` was given: those are not runs.
        if (!cmd->get_subcommands().empty()) return;
        runBench(*o);
    });
    addCompareCommand(cmd);
    addMergeCommand(cmd);
}

} // namespace sage::cli
