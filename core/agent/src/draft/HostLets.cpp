// Lets that read only attributes, numbers and earlier such lets (Adam's bias corrections
// 1 - beta^step, a reciprocal of a scale) are computed once on the host in double precision, the
// way CANN's tiling functions compute them, and reach the kernel as attribute fields. Computed in
// the kernel in float they lose digits: 1 - exp(step * ln(0.999)) is off by 1e-4 relative, which
// CANN Bench's criterion sees.
#include "draft/Skeletons.h"

#include <cstdio>

namespace sage::agent::draft {
namespace {

// An expression of numbers, attributes (hoisted lets among them) and elementwise functions only.
bool hostOnly(const eval::Expr& e, const eval::Task& task) {
    switch (e.op) {
    case eval::Expr::Op::Number: return true;
    case eval::Expr::Op::Ref: return task.attrs.count(e.name) > 0;
    case eval::Expr::Op::Call: {
        const eval::FunctionInfo* f = eval::findFunction(e.name);
        if (!f || f->kind != "elementwise") return false;
        break;
    }
    default: break;
    }
    for (const auto& a : e.args)
        if (!hostOnly(a, task)) return false;
    return true;
}

std::string doubleLiteral(double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    std::string s = buf;
    if (s.find_first_of(".eEn") == std::string::npos) s += ".0";  // "n": nan/inf never reach here
    return s;
}

// The expression as C++ over the host context, in double.
std::string hostCode(const eval::Expr& e, const std::map<std::string, std::string>& hostLets) {
    using Op = eval::Expr::Op;
    switch (e.op) {
    case Op::Number: return doubleLiteral(e.number);
    case Op::Ref: {
        auto it = hostLets.find(e.name);
        return it != hostLets.end() ? "(" + it->second + ")" : "double(ctx.attr(\"" + e.name + "\"))";
    }
    case Op::Neg: {
        std::string s = "(-";  // built by appending: GCC 12 warns (-Wrestrict, falsely) on "(-" + std::string
        s += hostCode(e.args[0], hostLets);
        return s + ")";
    }
    case Op::Call: {
        std::vector<std::string> args;
        for (const auto& a : e.args) args.push_back(hostCode(a, hostLets));
        return scalarFunction(e.name, args);
    }
    default: {
        const char* sym = e.op == Op::Add ? " + " : e.op == Op::Sub ? " - " : e.op == Op::Mul ? " * " : " / ";
        std::string s = "(";
        s += hostCode(e.args[0], hostLets);
        s += sym;
        s += hostCode(e.args[1], hostLets);
        return s + ")";
    }
    }
}

} // namespace

HostLets hoistHostLets(const eval::Task& task) {
    HostLets h{task, {}};
    std::vector<eval::ComputeStep> kept;
    for (const auto& l : task.compute.lets) {
        if (hostOnly(l.expr, h.task) && !task.attrs.count(l.name)) {
            h.hostValue[l.name] = hostCode(l.expr, h.hostValue);
            h.task.attrs[l.name] = 0.0;  // an attribute to the kernel; its value comes from hostValue
        } else {
            kept.push_back(l);
        }
    }
    h.task.compute.lets = std::move(kept);
    return h;
}

std::string Frame::attrHostValue(const std::string& attr) const {
    auto it = attrHost.find(attr);
    return it != attrHost.end() ? it->second : "ctx.attr(\"" + attr + "\")";
}

} // namespace sage::agent::draft
