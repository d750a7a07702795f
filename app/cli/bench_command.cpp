// `sage bench --split train|test|all --policy P --memory-mode M [--learn-on train] [--repeats K]
//  [--shard i/n] [--json]` and `sage bench merge FILES...`: runs the agent over a split and reports
// compile rate, correct rate, fast_1/fast_2 (correct and faster than the baseline by >1x/>2x),
// median speedup over the first correct candidate and over the baseline, median roofline
// fraction, mean iterations to first correct and to 0.8 roofline. With --learn-on train the
// memory first learns on the train split; the measured split then runs with learning frozen.
#include "cli/agent_db.h"
#include "cli/command_registry.h"
#include "cli/llm_options.h"
#include "cli/task_options.h"

#include "sage_agent/AgentLoop.h"
#include "sage_eval/Evaluator.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <numeric>
#include <unistd.h>

namespace sage::cli {
using nlohmann::json;
namespace {

struct BenchOptions {
    TaskOptions tasks;
    std::string split = "test", policy = "builtin", mode = "adoption", learnOn, shard, db, out;
    std::string device = "ascend910b1-sim";
    int repeats = 1, budget = 12;
    bool json = false;
    LlmOptions llm;
};

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}
double mean(const std::vector<double>& v) {
    return v.empty() ? 0 : std::accumulate(v.begin(), v.end(), 0.0) / double(v.size());
}

json aggregate(const json& rows, int budget) {
    std::vector<double> sFirst, sBase, roof, itFirst, itTarget;
    double compiled = 0, correct = 0, fast1 = 0, fast2 = 0;
    size_t reachedCount = 0;
    for (const auto& r : rows) {
        compiled += r["compiled"].get<bool>();
        bool ok = r["correct"].get<bool>();
        correct += ok;
        if (!ok) continue;
        double sb = r["speedup_vs_baseline"].get<double>();
        fast1 += sb > 1.0;
        fast2 += sb > 2.0;
        sBase.push_back(sb);
        sFirst.push_back(r["speedup_vs_first_correct"].get<double>());
        roof.push_back(r["roofline_fraction"].get<double>());
        itFirst.push_back(r["iterations_to_first_correct"].get<double>());
        // A run that never reaches 0.8 counts as budget + 1 iterations (censored), so a mode that
        // rarely gets there cannot look fast by averaging only its few successes.
        int reached = r["iterations_to_0_8_roofline"].get<int>();
        itTarget.push_back(reached > 0 ? double(reached) : double(budget + 1));
        if (reached > 0) ++reachedCount;
    }
    double n = rows.empty() ? 1 : double(rows.size());
    return {{"tasks", rows.size()},
            {"compile_rate", compiled / n},
            {"correct_rate", correct / n},
            {"fast_1", fast1 / n},
            {"fast_2", fast2 / n},
            {"median_speedup_vs_first_correct", median(sFirst)},
            {"median_speedup_vs_baseline", median(sBase)},
            {"median_roofline_fraction", median(roof)},
            {"mean_iterations_to_first_correct", mean(itFirst)},
            {"mean_iterations_to_0_8_roofline", mean(itTarget)},
            {"reached_0_8_roofline", reachedCount}};
}

void printTable(const json& report) {
    const auto& a = report["aggregate"];
    std::cout << "policy " << report.value("policy", "") << ", memory " << report.value("memory_mode", "") << ", split "
              << report.value("split", "") << (report.value("learn_on", "").empty() ? "" : ", learned on " + report.value("learn_on", ""))
              << "\n";
    std::cout << std::left << std::setw(22) << "task" << std::right << std::setw(8) << "correct" << std::setw(12) << "base cyc"
              << std::setw(12) << "best cyc" << std::setw(9) << "x base" << std::setw(9) << "x first" << std::setw(9)
              << "roofline" << std::setw(8) << "it->ok" << std::setw(9) << "it->0.8" << "\n";
    for (const auto& r : report["tasks"]) {
        std::cout << std::left << std::setw(22) << r["task"].get<std::string>() << std::right << std::setw(8)
                  << (r["correct"].get<bool>() ? "yes" : "NO") << std::setw(12) << r["baseline_cycles"].get<uint64_t>()
                  << std::setw(12) << r["best_cycles"].get<uint64_t>() << std::fixed << std::setprecision(2)
                  << std::setw(9) << r["speedup_vs_baseline"].get<double>() << std::setw(9)
                  << r["speedup_vs_first_correct"].get<double>() << std::setw(9) << r["roofline_fraction"].get<double>()
                  << std::setw(8) << r["iterations_to_first_correct"].get<int>() << std::setw(9)
                  << r["iterations_to_0_8_roofline"].get<int>() << "\n";
    }
    std::cout << std::setprecision(3) << "compile_rate " << a["compile_rate"].get<double>() << "  correct_rate "
              << a["correct_rate"].get<double>() << "  fast_1 " << a["fast_1"].get<double>() << "  fast_2 "
              << a["fast_2"].get<double>() << "\nmedian speedup vs first correct "
              << a["median_speedup_vs_first_correct"].get<double>() << "  vs baseline "
              << a["median_speedup_vs_baseline"].get<double>() << "  median roofline "
              << a["median_roofline_fraction"].get<double>() << "\nmean iterations to first correct "
              << a["mean_iterations_to_first_correct"].get<double>() << "  to 0.8 roofline "
              << a["mean_iterations_to_0_8_roofline"].get<double>() << " (never = budget + 1; "
              << a["reached_0_8_roofline"].get<size_t>() << " runs reached it)\n";
}

// One measured run: the loop, then the metrics from what it stored.
json measure(const eval::Task& task, const eval::Evaluator& evaluator, agent::RunStore& runs,
             memory::ExperienceStore* mem, const agent::AgentSettings& s, int repeat) {
    agent::AgentLoop loop(evaluator, agent::makePolicy(s), s);
    auto sum = loop.run(task, runs, mem);
    auto its = runs.iterations(sum.runId);
    bool compiled = false;
    uint64_t baseline = 0;
    for (const auto& it : its) {
        compiled |= it.evaluation.is_object() && it.evaluation["compile"].value("ok", false);
        if (it.index == 0 && it.correct && it.source == task.baselineSource) baseline = it.cycles;
    }
    if (!baseline) {  // the draft was not the baseline (LLM policy): evaluate the baseline itself
        eval::EvalRequest req;
        req.source = task.baselineSource;
        req.deviceId = s.device;
        auto ev = evaluator.evaluate(task, req);
        baseline = ev.success() ? ev.profile.totalCycles : 0;
    }
    bool correct = sum.firstCorrectIteration >= 0;
    return {{"task", task.name},
            {"category", task.category},
            {"split", task.split},
            {"repeat", repeat},
            {"run_id", sum.runId},
            {"compiled", compiled},
            {"correct", correct},
            {"iterations", sum.iterations},
            {"baseline_cycles", baseline},
            {"first_correct_cycles", sum.firstCorrectCycles},
            {"best_cycles", sum.bestCycles},
            {"speedup_vs_baseline", correct && baseline && sum.bestCycles ? double(baseline) / double(sum.bestCycles) : 0.0},
            {"speedup_vs_first_correct", correct ? sum.speedupVsFirstCorrect : 0.0},
            {"roofline_fraction", sum.bestRooflineFraction},
            {"iterations_to_first_correct", correct ? sum.firstCorrectIteration + 1 : -1},
            {"iterations_to_0_8_roofline", sum.iterationsToTargetRoofline >= 0 ? sum.iterationsToTargetRoofline + 1 : -1},
            {"stop_reason", sum.stopReason}};
}

} // namespace

void registerBenchCommand(CLI::App& app) {
    auto* cmd = app.add_subcommand("bench", "Run the agent over a split and report KernelBench-style metrics");
    auto o = std::make_shared<BenchOptions>();
    o->tasks.add(cmd);
    cmd->add_option("--split", o->split, "train | test | all")->check(CLI::IsMember({"train", "test", "all"}));
    cmd->add_option("--policy", o->policy, "builtin | llm")->check(CLI::IsMember({"builtin", "llm"}));
    cmd->add_option("--memory-mode", o->mode, "off | similarity | all_retrieved | adoption")
        ->check(CLI::IsMember({"off", "similarity", "all_retrieved", "adoption"}));
    cmd->add_option("--learn-on", o->learnOn, "Learn on this split first (train), then measure with learning frozen");
    cmd->add_option("--repeats", o->repeats, "Runs per task")->check(CLI::Range(1, 100));
    cmd->add_option("--budget", o->budget, "Iterations per run")->check(CLI::Range(1, 1000));
    cmd->add_option("--shard", o->shard, "i/n: run only tasks whose index modulo n is i (0-based)");
    cmd->add_option("--db", o->db, "Database to use and keep (default: a fresh temporary one seeded with the seed pack)");
    cmd->add_option("--device", o->device, "Device profile id");
    cmd->add_option("--out", o->out, "Also write the JSON report to this file");
    o->llm.add(cmd);
    cmd->add_flag("--json", o->json, "Print the JSON report");
    cmd->callback([o] {
        int shardI = 0, shardN = 1;
        if (!o->shard.empty() && std::sscanf(o->shard.c_str(), "%d/%d", &shardI, &shardN) != 2) {
            std::cerr << "sage: error: --shard takes i/n, e.g. 0/4\n";
            throw CLI::RuntimeError(2);
        }
        if (shardN < 1 || shardI < 0 || shardI >= shardN) {
            std::cerr << "sage: error: --shard " << o->shard << ": need 0 <= i < n\n";
            throw CLI::RuntimeError(2);
        }
        auto set = o->tasks.load();
        auto evaluator = eval::Evaluator::fromEnvironment();
        std::string dbPath = o->db;
        bool temporary = dbPath.empty();
        if (temporary)
            dbPath = (std::filesystem::temp_directory_path() / ("sage-bench-" + std::to_string(::getpid()) + ".db")).string();
        auto db = openAgentDatabase(dbPath);
        agent::RunStore runs(db);
        agent::AgentSettings s;
        s.policy = o->policy;
        s.budget = o->budget;
        s.memoryMode = memory::requireEnum<memory::MemoryMode>(o->mode);  // --memory-mode is already checked
        s.device = o->device;
        o->llm.apply(s.llm);
        std::unique_ptr<memory::ExperienceStore> mem;
        if (memory::retrieves(s.memoryMode)) {
            mem = std::make_unique<memory::ExperienceStore>(db);
            seedIfEmpty(*mem);
        }
        auto inSplit = [](const eval::Task& t, const std::string& split) { return split == "all" || t.split == split; };
        if (!o->learnOn.empty() && mem && memory::learnsValues(s.memoryMode) && o->learnOn != o->split) {
            for (const auto& t : set.tasks) {
                if (!inSplit(t, o->learnOn)) continue;
                if (!o->json) std::cerr << "learning on " << t.name << "\n";
                agent::AgentLoop loop(evaluator, agent::makePolicy(s), s);
                loop.run(t, runs, mem.get());
            }
            s.learn = false;  // the measured split runs with the learned memory frozen
        }
        json rows = json::array();
        int index = 0;
        for (const auto& t : set.tasks) {
            if (!inSplit(t, o->split)) continue;
            if (index++ % shardN != shardI) continue;
            for (int r = 0; r < o->repeats; ++r) {
                if (!o->json) std::cerr << "measuring " << t.name << (o->repeats > 1 ? " #" + std::to_string(r) : "") << "\n";
                s.seed = uint64_t(r);
                rows.push_back(measure(t, evaluator, runs, mem.get(), s, r));
            }
        }
        json report = {{"policy", o->policy}, {"memory_mode", o->mode}, {"split", o->split}, {"learn_on", o->learnOn},
                       {"budget", o->budget}, {"repeats", o->repeats}, {"shard", o->shard}, {"device", o->device},
                       {"tasks", rows}, {"aggregate", aggregate(rows, o->budget)}};
        if (!o->out.empty()) std::ofstream(o->out) << report.dump(2) << "\n";
        if (o->json) std::cout << report.dump(2) << "\n";
        else printTable(report);
        db.reset();
        if (temporary) {
            std::error_code ec;
            for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(dbPath + suffix, ec);
        }
    });

    auto* merge = cmd->add_subcommand("merge", "Merge shard reports (JSON files from --out/--json)");
    auto files = std::make_shared<std::vector<std::string>>();
    auto mjson = std::make_shared<bool>(false);
    merge->add_option("files", *files, "Shard reports")->required()->check(CLI::ExistingFile);
    merge->add_flag("--json", *mjson, "Print the merged JSON report");
    merge->callback([files, mjson] {
        json merged;
        json rows = json::array();
        for (const auto& f : *files) {
            json part;
            try {
                std::ifstream in(f);
                part = json::parse(in);
            } catch (const std::exception& e) {
                std::cerr << "sage: error: " << f << " is not a bench report: " << e.what() << "\n";
                throw CLI::RuntimeError(2);
            }
            if (merged.is_null()) merged = part;
            for (const auto& r : part["tasks"]) rows.push_back(r);
        }
        merged["tasks"] = rows;
        merged["shard"] = "merged";
        merged["aggregate"] = aggregate(rows, merged.value("budget", 12));
        if (*mjson) std::cout << merged.dump(2) << "\n";
        else printTable(merged);
    });
}

} // namespace sage::cli
