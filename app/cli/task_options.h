// Options shared by commands that read tasks: --tasks DIR (repeatable) adds task folders to
// the built-in resources/tasks; --tasks-only reads the --tasks folders alone (e.g. the KernelBench
// port under resources/kernelbench/level1 without the built-in suite).
#pragma once

#include "sage_eval/Task.h"

#include <CLI/CLI.hpp>
#include <memory>
#include <string>
#include <vector>

namespace sage::cli {

struct TaskOptions {
    std::vector<std::string> extraDirs;
    bool extraOnly = false;
    void add(CLI::App* cmd) {
        cmd->add_option("--tasks", extraDirs, "Also read tasks from this directory");
        cmd->add_flag("--tasks-only", extraOnly, "Read only the --tasks directories, not the built-in task suite");
    }
    eval::TaskSet load() const;
    // Throws CLI::RuntimeError(2) with the list of known tasks when `name` is unknown.
    const eval::Task& find(const eval::TaskSet& set, const std::string& name) const;
};

} // namespace sage::cli
