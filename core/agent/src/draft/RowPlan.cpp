#include "draft/RowPlan.h"

#include <algorithm>

namespace sage::agent::draft {
using eval::Expr;

std::string functionKind(const Expr& e) {
    if (e.op != Expr::Op::Call) return "";
    const eval::FunctionInfo* f = eval::findFunction(e.name);
    return f ? f->kind : "";
}

namespace {

Expr inlineLets(const Expr& e, const std::map<std::string, Expr>& lets) {
    if (e.op == Expr::Op::Ref) {
        auto it = lets.find(e.name);
        return it == lets.end() ? e : it->second;
    }
    Expr c = e;
    for (auto& a : c.args) a = inlineLets(a, lets);
    return c;
}

// 1 + the deepest row reduction inside: the pass after which the value is known.
size_t depth(const Expr& e) {
    size_t inner = 0;
    for (const auto& a : e.args) inner = std::max(inner, depth(a));
    return functionKind(e) == "row_reduce" ? inner + 1 : inner;
}

struct Walker {
    RowPlan& plan;
    std::string field;

    [[noreturn]] void fail(const std::string& what) const { throw DraftError("field '" + field + "': " + what); }

    void walk(const Expr& e, bool inReduce, bool inTotal) {
        const std::string kind = functionKind(e);
        const std::string key = e.text();
        if (kind == "row_reduce") {
            if (!plan.passOf.count(key)) {
                const size_t pass = depth(e) - 1;
                if (plan.passes.size() <= pass) plan.passes.resize(pass + 1);
                const std::string var = "rv" + std::to_string(plan.passOf.size()) + "_";
                plan.passes[pass].push_back({&e, var});
                plan.passOf[key] = pass;
                plan.varOf[key] = var;
            }
            inReduce = true;
        } else if (kind == "row_scan") {
            if (inReduce || inTotal) fail(e.name + " gives a row; it cannot be reduced or summed over rows here");
            const bool rev = e.name == "row_scan_sum_rev";
            if (!plan.scans.empty() && rev != plan.reverse)
                fail("forward and reverse scans in one spec: the last pass walks the row one way");
            plan.reverse = rev;
            if (!plan.varOf.count(key)) {
                plan.varOf[key] = "scan" + std::to_string(plan.scans.size()) + "_";
                plan.scans.push_back(&e);
            }
        } else if (kind == "rows_total") {
            if (inReduce || inTotal) fail(e.name + " sums a per-row value over the rows; it cannot be nested");
            if (!plan.varOf.count(key)) {
                plan.varOf[key] = "tot" + std::to_string(plan.totals.size()) + "_";
                plan.totals.push_back(&e);
            }
            inTotal = true;
        }
        for (const auto& a : e.args) walk(a, inReduce, inTotal);
    }
};

} // namespace

RowPlan RowPlan::of(const eval::ComputeSpec& spec) {
    RowPlan plan;
    std::map<std::string, Expr> lets;
    for (const auto& l : spec.lets) lets[l.name] = inlineLets(l.expr, lets);
    plan.outputs.reserve(spec.outputs.size());  // the plan keeps pointers into these
    for (const auto& o : spec.outputs) plan.outputs.push_back(inlineLets(o.expr, lets));
    for (size_t i = 0; i < spec.outputs.size(); ++i) Walker{plan, spec.outputs[i].field}.walk(plan.outputs[i], false, false);
    return plan;
}

} // namespace sage::agent::draft
