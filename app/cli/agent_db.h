// Opening the agent's database for CLI commands: the default path, the memory schema plus the
// agent schema, and the seed pack imported into a database that has no experiences yet.
#pragma once

#include "sage_agent/RunStore.h"
#include "sage_memory/ExperienceStore.h"

#include <memory>
#include <string>

namespace sage::cli {

std::string defaultDatabasePath();  // $XDG_DATA_HOME/sage/sage.db (~/.local/share/sage/sage.db)
std::shared_ptr<memory::Database> openAgentDatabase(const std::string& path);
// Imports resources/memory/seed.jsonl when the store is empty; returns how many were imported.
int seedIfEmpty(memory::ExperienceStore& store);

} // namespace sage::cli
