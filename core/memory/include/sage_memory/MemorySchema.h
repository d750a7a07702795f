// MemorySchema: the tables of the experience store, as the "memory" SchemaModule (its version is
// PRAGMA user_version). Add a migration at the end to change the schema; never edit a shipped one.
//
//   experience            one row per entry (text, trigger, action, status, origin, pin, merge link)
//   experience_fts        FTS5 index (title, content, trigger) kept in step by SQL triggers
//   experience_provenance where an entry came from (task, run, iteration, diff), several per entry
//   experience_stats      learned value and counters per (entry, stage)
//   q_history             every change of Q, for plotting
//   experience_revision   snapshot of the fields before each curation change (who, when, why)
//   retrieval             adoption records: what was retrieved in which iteration, its adoption and credit
#pragma once

#include "sage_memory/Database.h"

namespace sage::memory {

class MemorySchema {
public:
    static const SchemaModule& module();
    static int latestVersion() { return module().latestVersion(); }
};

} // namespace sage::memory
