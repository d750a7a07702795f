// Options shared by commands that read tasks: --tasks DIR (repeatable) adds task folders to
// the built-in resources/tasks.
#pragma once

#include "sage_eval/Task.h"

#include <CLI/CLI.hpp>
#include <memory>
#include <string>
#include <vector>

namespace sage::cli {

struct TaskOptions {
    std::vector<std::string> extraDirs;
    void add(CLI::App* cmd) { cmd->add_option("--tasks", extraDirs, "Also read tasks from this directory"); }
    eval::TaskSet load() const;
    // Throws CLI::RuntimeError(2) with the list of known tasks when `name` is unknown.
    const eval::Task& find(const eval::TaskSet& set, const std::string& name) const;
};

} // namespace sage::cli
