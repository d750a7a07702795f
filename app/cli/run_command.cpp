// `sage run --task NAME --policy builtin|llm [--budget N] [--db FILE] [--memory-mode M] [--kernel FILE] --json`:
// runs the agent on one task (same loop as the workbench), prints events, stores the run.
// With --kernel the run starts from that file (iteration 0 evaluates it) instead of a draft.
// `sage replay RUN_ID --db FILE [--json]`: the stored iterations of a run, in order.
#include "cli/agent_db.h"
#include "cli/command_registry.h"
#include "cli/kernel_file.h"
#include "cli/llm_options.h"
#include "cli/output_file.h"
#include "cli/task_options.h"

#include "sage_agent/AgentLoop.h"
#include "sage_eval/Evaluator.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>

namespace sage::cli {
namespace {

struct RunOptions {
    TaskOptions tasks;
    std::string task, policy = "builtin", db, mode = "adoption", device = "ascend910b1-sim", kernel;
    LlmOptions llm;
    int budget = 12;
    uint64_t seed = 0;
    bool json = false, quiet = false, noSpeculate = false;
};

memory::MemoryMode parseMode(const std::string& m) {
    if (auto mode = memory::parseEnum<memory::MemoryMode>(m)) return *mode;
    std::cerr << "sage: error: --memory-mode '" << m << "' is not one of " << memory::enumChoices<memory::MemoryMode>()
              << "\n";
    throw CLI::RuntimeError(2);
}

// Declared and code-matched adoption told apart (issue 30): "declared #12 #7; code-matched #8".
// A reply that said `ADOPTED: none` shows only what its code matched, marked as such.
std::string adoptionText(const std::vector<agent::AdoptionRecord>& adoptions) {
    std::string declared, matched;
    for (const auto& a : adoptions) {
        if (a.declared) declared += " #" + std::to_string(a.id) + (a.evidenced ? "" : " (not in the code)");
        else if (a.evidenced) matched += " #" + std::to_string(a.id);
    }
    std::string out;
    if (!declared.empty()) out += "declared" + declared;
    if (!matched.empty()) out += (out.empty() ? "" : "; ") + std::string("code-matched, not declared") + matched;
    return out;
}

// A slow model streams for minutes: a line on stderr every few seconds says the reply is coming.
void streamProgress(const agent::AgentEvent& e) {
    static int iteration = -1;
    static size_t chars = 0;
    static auto started = std::chrono::steady_clock::now(), lastShown = started;
    const auto now = std::chrono::steady_clock::now();
    if (e.iteration != iteration) {
        iteration = e.iteration;
        chars = 0;
        started = lastShown = now;
    }
    chars += e.text.size();
    if (now - lastShown < std::chrono::seconds(5)) return;
    lastShown = now;
    std::cerr << "    ... receiving the reply: " << chars << " characters in "
              << std::chrono::duration_cast<std::chrono::seconds>(now - started).count() << " s\n";
}

void printEvent(const agent::AgentEvent& e) {
    using T = agent::AgentEventType;
    switch (e.type) {
    case T::Token: streamProgress(e); break;
    case T::IterationStarted: std::cout << "[" << e.iteration << "] " << memory::toString(e.stage.value_or(memory::Stage::Any)) << " ..." << std::flush; break;
    case T::IterationFinished: {
        if (!e.record) break;
        const agent::IterationRecord& r = *e.record;
        std::cout << " " << r.move << " -> " << toString(r.status);
        if (r.correct) std::cout << ", " << r.cycles << " cycles, roofline " << std::setprecision(3) << r.rooflineFraction;
        std::cout << ", reward " << std::setprecision(3) << r.reward;
        if (const std::string adopted = adoptionText(r.adoptions); !adopted.empty()) std::cout << ", " << adopted;
        std::cout << "\n";
        break;
    }
    case T::Error: std::cout << "\n    error: " << e.text << "\n"; break;
    case T::Notice: std::cout << "\n    note: " << e.text << "\n" << std::flush; break;
    case T::RunFinished: std::cout << "run finished: " << e.text << "\n"; break;
    default: break;
    }
}

} // namespace

void registerRunCommand(CLI::App& app) {
    auto* cmd = app.add_subcommand("run", "Run the agent on a task and store the run");
    auto o = std::make_shared<RunOptions>();
    o->tasks.add(cmd);
    cmd->add_option("--task", o->task, "Task name")->required();
    cmd->add_option("--policy", o->policy, "builtin (offline, default) or llm")->check(CLI::IsMember({"builtin", "llm"}));
    cmd->add_option("--budget", o->budget, "Iterations, including the draft (default 12)")->check(CLI::Range(1, 1000));
    cmd->add_option("--db", o->db, "Database file or postgresql:// URL (runs and memory; default " + defaultDatabasePath() + ")");
    cmd->add_option("--memory-mode", o->mode, "off | similarity | all_retrieved | adoption (default)");
    cmd->add_option("--device", o->device, "Device profile id");
    cmd->add_option("--seed", o->seed, "Seed for retrieval exploration");
    cmd->add_option("--kernel", o->kernel, "Start from this kernel file (iteration 0 evaluates it) instead of a draft");
    o->llm.add(cmd);
    cmd->add_flag("--no-speculate", o->noSpeculate,
                  "Do not compile the likely next candidate while one is evaluated (saves CPU on a shared machine)");
    cmd->add_flag("--json", o->json, "Print the run summary as JSON (no progress lines)");
    cmd->callback([o] {
        const std::string startKernel = o->kernel.empty() ? std::string() : readKernelFile(o->kernel);
        auto set = o->tasks.load();
        const auto& task = o->tasks.find(set, o->task);
        agent::AgentSettings s;
        s.policy = o->policy;
        s.budget = o->budget;
        s.memoryMode = parseMode(o->mode);
        s.device = o->device;
        s.seed = o->seed;
        s.speculate = !o->noSpeculate;
        o->llm.apply(s.llm);
        auto evaluator = eval::Evaluator::fromEnvironment();
        evaluator.devices().get(s.device);
        const std::string dbPath = o->db.empty() ? defaultDatabasePath() : o->db;
        auto db = openAgentDatabase(dbPath);
        agent::RunStore runs(db);
        std::unique_ptr<memory::ExperienceStore> mem;
        if (memory::retrieves(s.memoryMode)) {
            mem = std::make_unique<memory::ExperienceStore>(db);
            int seeded = seedIfEmpty(*mem);
            if (seeded && !o->json) std::cout << "seeded the memory with " << seeded << " expert entries\n";
        }
        agent::AgentLoop loop(evaluator, agent::makePolicy(s), s);
        if (!o->kernel.empty())
            loop.setStartCandidate(startKernel, "file " + std::filesystem::path(o->kernel).filename().string());
        if (!o->json) loop.addObserver(printEvent);
        auto sum = loop.run(task, runs, mem.get());
        if (o->json) {
            std::cout << sum.toJson().dump(2) << "\n";
        } else {
            std::cout << "run " << sum.runId << " stored in " << dbPath << " (replay: sage replay " << sum.runId
                      << " --db " << dbPath << ")\n";
            if (sum.firstCorrectIteration >= 0)
                std::cout << "first correct at iteration " << sum.firstCorrectIteration << "; best " << sum.bestCycles
                          << " cycles at iteration " << sum.bestIteration << " (roofline " << std::setprecision(3)
                          << sum.bestRooflineFraction << ", " << sum.speedupVsFirstCorrect
                          << "x over the first correct)\n";
            else
                std::cout << "no correct candidate within the budget\n";
        }
        if (sum.firstCorrectIteration < 0) throw CLI::RuntimeError(1);
    });

    auto* rep = app.add_subcommand("replay", "Print a stored run's iterations in order");
    auto runId = std::make_shared<int64_t>(0);
    auto db = std::make_shared<std::string>();
    auto json = std::make_shared<bool>(false);
    auto exportBest = std::make_shared<std::string>();
    rep->add_option("run_id", *runId, "Run id (see `sage run`)")->required();
    rep->add_option("--export-best", *exportBest, "Write the best correct candidate's source to this file");
    rep->add_option("--db", *db, "Database file (default " + defaultDatabasePath() + ")");
    rep->add_flag("--json", *json, "Print the run and its iterations as JSON");
    rep->callback([runId, db, json, exportBest] {
        const OutputFile best = OutputFile::prepare(*exportBest, "--export-best");
        auto database = openAgentDatabase(db->empty() ? defaultDatabasePath() : *db);
        agent::RunStore runs(database);
        auto run = runs.run(*runId);
        if (!run) {
            std::cerr << "sage: error: no run " << *runId << " in " << database->path().string()
                      << " (list runs with `sage replay` on the right --db)\n";
            throw CLI::RuntimeError(2);
        }
        auto its = runs.iterations(*runId);
        if (!exportBest->empty()) {
            if (run->bestIteration < 0 || size_t(run->bestIteration) >= its.size()) {
                std::cerr << "sage: error: run " << run->id << " has no correct candidate to export\n";
                throw CLI::RuntimeError(1);
            }
            best.write(its[size_t(run->bestIteration)].source);
        }
        if (*json) {
            nlohmann::json out = agent::toJson(*run);
            out["iterations"] = nlohmann::json::array();
            for (const auto& it : its) out["iterations"].push_back(agent::toJson(it));
            std::cout << out.dump(2) << "\n";
            return;
        }
        std::cout << "run " << run->id << ": task " << run->task << ", policy " << run->policy << ", memory "
                  << run->memoryMode << ", " << toString(run->status) << " (" << run->stopReason << ")\n";
        for (const auto& it : its) {
            std::cout << std::setw(3) << it.index << " " << std::setw(8) << memory::toString(it.stage) << " " << std::setw(6) << it.origin
                      << " " << std::left << std::setw(34) << it.move << std::right << " " << std::setw(13) << toString(it.status);
            if (it.correct) std::cout << " " << std::setw(9) << it.cycles << " cyc  roofline " << std::setprecision(3) << it.rooflineFraction;
            std::cout << "  reward " << std::setprecision(3) << it.reward;
            if (const std::string adopted = adoptionText(it.adoptions); !adopted.empty()) std::cout << "  " << adopted;
            std::cout << "\n";
            for (const auto& note : it.notes) std::cout << "      note: " << note << "\n";
        }
    });
}

} // namespace sage::cli
