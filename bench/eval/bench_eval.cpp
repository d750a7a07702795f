// Turnaround of `sage eval` on an elementwise task, as a user sees it: the whole CLI process.
// Cold = empty compile, input and reference caches; warm = the same kernel again. Prints medians
// and where the time goes.  Usage: bench_eval [reps] [task] [kernel file]
// (default: 5 reps of task add with resources/tasks/add/tuned.cpp; 3 cases x 3 seeds, perf case 2 M).
#include "sage_toolchain/Process.h"
#include "sage_toolchain/ToolPaths.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <vector>

namespace fs = std::filesystem;
using namespace sage::toolchain;

int main(int argc, char** argv) {
    const int reps = argc > 1 ? std::atoi(argv[1]) : 5;
    auto paths = ToolPaths::fromEnvironment();
    const std::string task = argc > 2 ? argv[2] : "add";
    const std::string kernel = argc > 3 ? argv[3] : paths.resources + "/tasks/add/tuned.cpp";
    const fs::path root = fs::temp_directory_path() / "sage-bench-eval";
    fs::remove_all(root);
    auto evalOnce = [&](const fs::path& cache, nlohmann::json& out) {
        ProcessSpec ps;
        ps.argv = {paths.binDir + "/sage", "eval", "--task", task, "--kernel", kernel, "--json"};
        ps.workDir = root.string();
        ps.env = {"SAGE_CACHE_DIR=" + cache.string(), "SAGE_BIN_DIR=" + paths.binDir};
        ps.captureLimit = 64 << 20;
        auto r = runProcess(ps);
        out = nlohmann::json::parse(r.out);
        return r.wallSeconds;
    };
    std::map<std::string, std::vector<double>> phases[2];
    std::vector<double> cold, warm;
    for (int i = 0; i < reps; ++i) {
        fs::path cache = root / ("cache" + std::to_string(i));
        fs::create_directories(cache);
        nlohmann::json j;
        cold.push_back(evalOnce(cache, j));
        for (auto& [k, v] : j["phase_seconds"].items()) phases[0][k].push_back(v.get<double>());
        warm.push_back(evalOnce(cache, j));
        for (auto& [k, v] : j["phase_seconds"].items()) phases[1][k].push_back(v.get<double>());
        if (!j["success"].get<bool>()) std::printf("WARNING: evaluation failed\n");
    }
    auto median = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
    };
    std::printf("sage eval --task %s --kernel %s (%d reps)\n", task.c_str(), fs::path(kernel).filename().c_str(), reps);
    const char* names[] = {"cold", "warm"};
    for (int w = 0; w < 2; ++w) {
        double total = median(w ? warm : cold), inside = 0;
        std::printf("  %s: median %.3f s wall (whole CLI process)\n", names[w], total);
        for (auto& [k, v] : phases[w]) {
            double m = median(v);
            inside += m;
            std::printf("      %-10s %.3f s\n", k.c_str(), m);
        }
        std::printf("      %-10s %.3f s (process start, task and device loading, JSON output)\n", "other",
                    std::max(0.0, total - inside));
    }
    fs::remove_all(root);
}
