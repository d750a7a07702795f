// `sage tasks [--tasks DIR] [--json]`: list the task suite.
#include "cli/command_registry.h"
#include "cli/task_options.h"

#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

namespace sage::cli {

void registerTasksCommand(CLI::App& app) {
    auto* cmd = app.add_subcommand("tasks", "List the tasks (name, category, split, cases)");
    auto opts = std::make_shared<TaskOptions>();
    auto json = std::make_shared<bool>(false);
    opts->add(cmd);
    cmd->add_flag("--json", *json, "Print a JSON array of {name, category, split, cases}");
    cmd->callback([opts, json] {
        auto set = opts->load();
        if (*json) {
            nlohmann::json out = nlohmann::json::array();
            for (const auto& t : set.tasks) {
                nlohmann::json cases = nlohmann::json::array();
                for (const auto& c : t.cases) cases.push_back({{"name", c.name}, {"dims", c.dims}, {"perf", c.perf}});
                out.push_back({{"name", t.name}, {"category", t.category}, {"split", t.split}, {"cases", cases},
                               {"has_tuned", !t.tunedSource.empty()}});
            }
            std::cout << out.dump(2) << "\n";
            return;
        }
        for (const auto& t : set.tasks)
            std::cout << std::left << std::setw(24) << t.name << std::setw(15) << t.category << std::setw(6) << t.split
                      << t.cases.size() << " cases" << (t.tunedSource.empty() ? "" : ", tuned kernel") << "\n";
        std::cout << set.tasks.size() << " tasks\n";
    });
}

} // namespace sage::cli
