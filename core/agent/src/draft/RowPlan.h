// What a rowwise compute spec asks of the streamed row skeleton, read off its expressions:
// which row reductions must be finished before others can start (one pass over the row each),
// which running scans the last pass writes, and which per-row values are summed over all rows.
#pragma once

#include "draft/DraftKnowledge.h"
#include "sage_eval/ComputeSpec.h"

#include <map>
#include <string>
#include <vector>

namespace sage::agent::draft {

struct RowReduction {
    const eval::Expr* expr;  // the row_sum/row_max/row_min/row_mean call
    std::string var;         // the member that holds its value for the current row
};

struct RowPlan {
    std::vector<eval::Expr> outputs;                 // the spec's outputs with every let written in
    std::vector<std::vector<RowReduction>> passes;   // reductions by the pass that computes them
    std::map<std::string, size_t> passOf;            // reduction text -> its pass
    std::map<std::string, std::string> varOf;        // reduction, scan or total text -> member variable
    std::vector<const eval::Expr*> scans;            // row_scan_* calls, written by the last pass
    std::vector<const eval::Expr*> totals;           // all_sum/all_mean calls
    bool reverse = false;                            // the last pass walks the row backwards

    // Throws DraftError naming the output's field when a construct is used where it cannot be.
    static RowPlan of(const eval::ComputeSpec& spec);
};

// The function kind of a call ("row_reduce", "row_scan", ...), or "" for anything else.
std::string functionKind(const eval::Expr& e);

} // namespace sage::agent::draft
