// Each `sage` sub-command lives in its own file and registers itself here.
#pragma once

#include <CLI/CLI.hpp>

namespace sage::cli {

// Exit status of every command when the database server cannot be reached, stops answering or
// stays away longer than the reconnect budget (issue 31; docs/cli.md).
constexpr int kExitDatabaseUnavailable = 6;

// Adds `sage devices` (list device profiles).
void registerDevicesCommand(CLI::App& app);
// Adds `sage tasks` (list the task suite).
void registerTasksCommand(CLI::App& app);
// Adds `sage eval` (compile, run, verify, profile).
void registerEvalCommand(CLI::App& app);
// Adds `sage run` and `sage replay` (the agent on one task).
void registerRunCommand(CLI::App& app);
// Adds `sage bench` and `sage bench merge`.
void registerBenchCommand(CLI::App& app);
// Adds `sage memory` (experience store curation); app/cli/memory_command.cpp.
void registerMemoryCommand(CLI::App& app);
// Adds `sage prompt` (the LLM prompt of a task and stage, with section sizes); cli/prompt_command.cpp.
void registerPromptCommand(CLI::App& app);
// Adds `sage compat DIR` (which kernels under a directory parse and compile); compat_command.cpp.
void registerCompatCommand(CLI::App& app);
// Adds `sage op DIR` and `sage op init DIR` (run an op project from its own host tiling); op_command.cpp.
void registerOpCommand(CLI::App& app);
// Adds `sage cache [--trim]` (what the caches hold, trimming them to budget); cache_command.cpp.
void registerCacheCommand(CLI::App& app);

} // namespace sage::cli
