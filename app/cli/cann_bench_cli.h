// The CLI's view of CANN Bench tasks (docs/cann-bench.md): `sage tasks` lists each operator with
// whether the built-in policy drafts it; `sage tasks --check` runs every golden on every case that
// fits; `sage bench` prints per-case HAP, operator scores and level sums.
#pragma once

#include "sage_eval/Task.h"

#include <nlohmann/json.hpp>

namespace sage::cli {

bool hasBenchTasks(const eval::TaskSet& set);
void listBenchTasks(const eval::TaskSet& set, bool json);
// Exit 1 (CLI::RuntimeError) when a golden fails; exit 2 before any work without PyTorch.
void checkBenchGoldens(const eval::TaskSet& set);
// Stops with exit 2 and the install line when the goldens cannot run here.
void requireGoldenPython(const eval::TaskSet& set);
// Of the rows of `sage bench` that carry a "cann" score: {"operators": [...], "levels": {level: sum},
// "total": x}; null when no row does.
nlohmann::json summariseBenchScores(const nlohmann::json& rows);
// The per-case HAP table of each such row, the operator scores and the level sums.
void printBenchScores(const nlohmann::json& rows);

} // namespace sage::cli
