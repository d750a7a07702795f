#include "draft/VectorEmitter.h"

#include <sstream>

namespace sage::agent::draft {
using eval::Expr;

namespace {
std::string floatLiteral(double v) {
    std::ostringstream o;
    o.precision(9);
    o << v;
    std::string s = o.str();
    if (s.find_first_of(".eE") == std::string::npos) s += ".0";
    return s + "f";
}
} // namespace

std::string scalarFunction(const std::string& fn, const std::vector<std::string>& a) {
    const std::string x = a.empty() ? "" : "(" + a[0] + ")";
    if (fn == "exp") return "std::exp(" + x + ")";
    if (fn == "ln" || fn == "log") return "std::log(" + x + ")";
    if (fn == "sqrt") return "std::sqrt(" + x + ")";
    if (fn == "rsqrt") return "(1.0f / std::sqrt(" + x + "))";
    if (fn == "recip") return "(1.0f / " + x + ")";
    if (fn == "abs") return "std::fabs(" + x + ")";
    if (fn == "relu") return "std::fmax(" + x + ", 0.0f)";
    if (fn == "sigmoid") return "(1.0f / (1.0f + std::exp(-" + x + ")))";
    if (fn == "tanh") return "std::tanh(" + x + ")";
    if (fn == "gelu")
        return "(0.5f * " + x + " * (1.0f + std::tanh(0.7978845608f * (" + x + " + 0.044715f * " + x + " * " + x + " * " +
               x + "))))";
    if (fn == "silu") return "(" + x + " / (1.0f + std::exp(-" + x + ")))";
    if (fn == "softplus") return "std::log(1.0f + std::exp(" + x + "))";
    if (fn == "square") return "(" + x + " * " + x + ")";
    if (fn == "erf") return "std::erf(" + x + ")";
    if (fn == "pow") return "std::pow(" + x + ", " + a[1] + ")";
    // max and min as PyTorch's maximum/minimum: NaN in, NaN out (std::fmax alone would drop it).
    if (fn == "max" || fn == "min")
        return "(std::isnan(" + x + ") || std::isnan(" + a[1] + ") ? NAN : std::" + (fn == "max" ? "fmax(" : "fmin(") + x + ", " + a[1] + "))";
    if (fn == "leaky_relu") return "(" + x + " >= 0.0f ? " + x + " : " + x + " * (" + a[1] + "))";
    return "";
}

std::string widenBf16Bits(VectorEmitter& em, const std::string& bits) {
    const std::string b = em.newBuffer(), n = em.count();
    em.line("Cast(" + b + ".ReinterpretCast<int32_t>(), " + bits + ", RoundMode::CAST_NONE, " + n + ");");
    em.line("ShiftLeft(" + b + ".ReinterpretCast<int32_t>(), " + b + ".ReinterpretCast<int32_t>(), (int32_t)16, " + n + ");");
    return b;
}

void narrowToBf16Bits(VectorEmitter& em, const std::string& floats, const std::string& bitsDst) {
    const std::string b = em.newBuffer(), n = em.count();
    em.line("Adds(" + b + ".ReinterpretCast<int32_t>(), " + floats + ".ReinterpretCast<int32_t>(), (int32_t)32768, " + n + ");");
    em.line("ShiftRight(" + b + ".ReinterpretCast<int32_t>(), " + b + ".ReinterpretCast<int32_t>(), (int32_t)16, " + n + ");");
    em.line("Cast(" + bitsDst + ", " + b + ".ReinterpretCast<int32_t>(), RoundMode::CAST_NONE, " + n + ");");
}

void VectorEmitter::fail(const std::string& what) const { throw DraftError("field '" + field_ + "': " + what); }

std::string VectorEmitter::newBuffer() {
    std::string buf = env_.bufPrefix + std::to_string(buffers_.size());
    buffers_.push_back(buf);
    std::string var = "t";  // built by appending: GCC 12 warns (-Wrestrict, falsely) on "t" + to_string(...)
    var += std::to_string(buffers_.size() - 1);
    var += "_" + env_.bufPrefix;
    line("LocalTensor<" + env_.ct + "> " + var + " = " + buf + ".Get<" + env_.ct + ">();");
    return var;
}

std::string VectorEmitter::scalarVar(const std::string& expr) {
    std::string v = "s";
    v += std::to_string(scalars_++);
    v += "_" + env_.bufPrefix;
    line("float " + v + " = " + expr + ";");
    return v;
}

void VectorEmitter::emitInto(const Expr& e, const std::string& dst) {
    if (e.op == Expr::Op::Ref || e.op == Expr::Op::Number) {
        Val v = emit(e);
        if (v.vec) line("Adds(" + dst + ", " + v.ref + ", " + cast("0.0f") + ", " + env_.count + ");");
        else line("Duplicate(" + dst + ", " + cast(v.ref) + ", " + env_.count + ");");
        return;
    }
    if (e.op == Expr::Op::Call) {
        Val v = call(e, dst);
        if (!v.vec) line("Duplicate(" + dst + ", " + cast(v.ref) + ", " + env_.count + ");");
        else if (v.ref != dst) line("Adds(" + dst + ", " + v.ref + ", " + cast("0.0f") + ", " + env_.count + ");");
        return;
    }
    if (e.op == Expr::Op::Neg) {
        Val a = emit(e.args[0]);
        if (a.vec) line("Muls(" + dst + ", " + a.ref + ", " + cast("-1.0f") + ", " + env_.count + ");");
        else line("Duplicate(" + dst + ", " + cast("-(" + a.ref + ")") + ", " + env_.count + ");");
        return;
    }
    Val a = emit(e.args[0]), b = emit(e.args[1]);
    Val v = binary(e.op, a, b, dst);
    if (!v.vec) line("Duplicate(" + dst + ", " + cast(v.ref) + ", " + env_.count + ");");
}

Val VectorEmitter::emit(const Expr& e) {
    switch (e.op) {
    case Expr::Op::Number: return {false, floatLiteral(e.number)};
    case Expr::Op::Ref: {
        auto l = lets_.find(e.name);
        if (l != lets_.end()) return l->second;
        if (auto v = env_.ref(e.name)) return *v;
        fail("'" + e.name + "' cannot be used here");
    }
    case Expr::Op::Neg: {
        Val a = emit(e.args[0]);
        if (!a.vec) return {false, "(-" + a.ref + ")"};
        std::string d = newBuffer();
        line("Muls(" + d + ", " + a.ref + ", " + cast("-1.0f") + ", " + env_.count + ");");
        return {true, d};
    }
    case Expr::Op::Call: return call(e, "");
    default: {
        Val a = emit(e.args[0]), b = emit(e.args[1]);
        return binary(e.op, a, b, "");
    }
    }
}

Val VectorEmitter::binary(Expr::Op op, const Val& a, const Val& b, const std::string& dstWanted) {
    const std::string& n = env_.count;
    if (!a.vec && !b.vec) {
        const char* sym = op == Expr::Op::Add ? " + " : op == Expr::Op::Sub ? " - " : op == Expr::Op::Mul ? " * " : " / ";
        return {false, "(" + a.ref + sym + b.ref + ")"};
    }
    std::string d = out(dstWanted);
    auto vv = [&](const char* api) { line(std::string(api) + "(" + d + ", " + a.ref + ", " + b.ref + ", " + n + ");"); };
    auto vs = [&](const char* api, const Val& v, const std::string& s) {
        line(std::string(api) + "(" + d + ", " + v.ref + ", " + cast(s) + ", " + n + ");");
    };
    switch (op) {
    case Expr::Op::Add:
        if (a.vec && b.vec) vv("Add");
        else vs("Adds", a.vec ? a : b, a.vec ? b.ref : a.ref);
        break;
    case Expr::Op::Sub:
        if (a.vec && b.vec) vv("Sub");
        else if (a.vec) vs("Adds", a, "-(" + b.ref + ")");
        else {
            vs("Muls", b, "-1.0f");
            line("Adds(" + d + ", " + d + ", " + cast(a.ref) + ", " + n + ");");
        }
        break;
    case Expr::Op::Mul:
        if (a.vec && b.vec) vv("Mul");
        else vs("Muls", a.vec ? a : b, a.vec ? b.ref : a.ref);
        break;
    case Expr::Op::Div:
        if (a.vec && b.vec) vv("Div");
        else if (a.vec) vs("Muls", a, "1.0f / (" + b.ref + ")");
        else {
            line("Reciprocal(" + d + ", " + b.ref + ", " + n + ");");
            line("Muls(" + d + ", " + d + ", " + cast(a.ref) + ", " + n + ");");
        }
        break;
    default: fail("unexpected operator");
    }
    return {true, d};
}

Val VectorEmitter::unaryVec(const std::string& op, const Val& a, const std::string& dstWanted) {
    const nlohmann::json& idiom = k_.idiom(op == "log" ? "ln" : op);
    if (idiom.contains("compose") && idiom["compose"].is_string()) {
        // An API substitution: the op written with other ops, "x" standing for the argument.
        Expr composed;
        try {
            composed = eval::parseExpression(idiom["compose"].get<std::string>());
        } catch (const std::exception& ex) {
            fail("memory idiom for " + op + " has a bad \"compose\": " + ex.what());
        }
        Val saved = lets_.count("x") ? lets_["x"] : Val{};
        bool had = lets_.count("x");
        lets_["x"] = a;
        Val v;
        if (dstWanted.empty()) v = emit(composed);
        else {
            emitInto(composed, dstWanted);
            v = {true, dstWanted};
        }
        if (had) lets_["x"] = saved;
        else lets_.erase("x");
        return v;
    }
    if (!idiom.contains("api") || !idiom["api"].is_string()) fail("the idiom for " + op + " has no \"api\" or \"compose\"");
    std::string d = out(dstWanted);
    line(idiom["api"].get<std::string>() + "(" + d + ", " + a.ref + ", " + env_.count + ");");
    return {true, d};
}

Val VectorEmitter::call(const Expr& e, const std::string& dstWanted) {
    if (env_.special)
        if (auto v = env_.special(e, *this)) return *v;
    const eval::FunctionInfo* f = eval::findFunction(e.name);
    if (!f || f->kind != "elementwise") fail(e.name + " is not available in this kind of compute spec");
    std::vector<Val> args;
    for (const auto& a : e.args) args.push_back(emit(a));
    bool anyVec = false;
    for (const auto& a : args) anyVec |= a.vec;
    if (!anyVec) {
        std::vector<std::string> s;
        for (const auto& a : args) s.push_back(a.ref);
        return {false, scalarFunction(e.name, s)};
    }
    if (e.name == "pow") fail("pow(x, y) of a tensor is not drafted; pow takes numbers and attributes (computed on the host), for a tensor write exp(y * ln(x))");
    const std::string& n = env_.count;
    if (e.name == "square") {
        std::string d = out(dstWanted);
        line("Mul(" + d + ", " + args[0].ref + ", " + args[0].ref + ", " + n + ");");
        return {true, d};
    }
    if (e.name == "max" || e.name == "min") {
        std::string api = e.name == "max" ? "Max" : "Min";
        std::string d = out(dstWanted);
        if (args[0].vec && args[1].vec) line(api + "(" + d + ", " + args[0].ref + ", " + args[1].ref + ", " + n + ");");
        else {
            const Val& v = args[0].vec ? args[0] : args[1];
            const Val& s = args[0].vec ? args[1] : args[0];
            line(api + "s(" + d + ", " + v.ref + ", " + cast(s.ref) + ", " + n + ");");
        }
        return {true, d};
    }
    if (e.name == "leaky_relu") {
        if (!args[0].vec || args[1].vec) fail("leaky_relu(x, slope) needs a scalar slope");
        std::string d = out(dstWanted);
        line("LeakyRelu(" + d + ", " + args[0].ref + ", " + cast(args[1].ref) + ", " + n + ");");
        return {true, d};
    }
    return unaryVec(e.name, args[0], dstWanted);
}

} // namespace sage::agent::draft
