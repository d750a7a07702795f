#include "cli/task_options.h"

#include "sage_eval/CannBench.h"
#include "sage_toolchain/ToolPaths.h"

#include <algorithm>

#include <iostream>

namespace sage::cli {

eval::TaskSet TaskOptions::load() const {
    if (extraOnly && extraDirs.empty()) {
        std::cerr << "sage: error: --tasks-only needs at least one --tasks DIR\n";
        throw CLI::RuntimeError(2);
    }
    std::vector<std::string> dirs;
    // A CANN Bench folder is a suite of its own: its operators share names with our tasks (gelu,
    // softmax), so it is read without the built-in suite.
    const bool bench = std::any_of(extraDirs.begin(), extraDirs.end(), [](const std::string& d) { return eval::cannbench::holdsOperators(d); });
    if (!extraOnly && !bench) dirs.push_back(toolchain::ToolPaths::fromEnvironment().tasksDir());
    dirs.insert(dirs.end(), extraDirs.begin(), extraDirs.end());
    auto set = eval::TaskSet::load(dirs);
    for (const auto& e : set.errors) std::cerr << "sage: warning: skipped task: " << e << "\n";
    return set;
}

const eval::Task& TaskOptions::find(const eval::TaskSet& set, const std::string& name) const {
    if (const auto* t = set.find(name)) return *t;
    std::string known;
    for (const auto& t : set.tasks) known += (known.empty() ? "" : ", ") + t.name;
    std::cerr << "sage: error: no task named '" << name << "'. Known tasks: " << known
              << ". Add folders with --tasks DIR.\n";
    throw CLI::RuntimeError(2);
}

} // namespace sage::cli
