#include "sage_eval/ComputeSpec.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>
#include <sstream>

namespace sage::eval {
using nlohmann::json;

namespace {

// Recursive descent over: expr := term (('+'|'-') term)*; term := unary (('*'|'/') unary)*;
// unary := '-' unary | primary; primary := number | name | name '(' expr (',' expr)* ')' | '(' expr ')'.
class Parser {
public:
    explicit Parser(const std::string& s) : s_(s) {}
    Expr parseAll() {
        if (s_.size() > 4000) throw ExprSyntaxError("expression longer than 4000 characters", 1);
        Expr e = expr();
        skip();
        if (pos_ < s_.size()) fail(std::string("unexpected '") + s_[pos_] + "'");
        return e;
    }

private:
    [[noreturn]] void fail(const std::string& what) const { throw ExprSyntaxError(what, pos_ + 1); }
    void skip() {
        while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
    }
    bool eat(char c) {
        skip();
        if (pos_ < s_.size() && s_[pos_] == c) {
            ++pos_;
            return true;
        }
        return false;
    }
    Expr binary(Expr::Op op, Expr a, Expr b) {
        Expr e;
        e.op = op;
        e.args = {std::move(a), std::move(b)};
        return e;
    }
    Expr expr() {
        if (++depth_ > 64) fail("expression nested deeper than 64 levels");
        Expr e = term();
        for (;;) {
            if (eat('+')) e = binary(Expr::Op::Add, std::move(e), term());
            else if (eat('-')) e = binary(Expr::Op::Sub, std::move(e), term());
            else break;
        }
        --depth_;
        return e;
    }
    Expr term() {
        Expr e = unary();
        for (;;) {
            if (eat('*')) e = binary(Expr::Op::Mul, std::move(e), unary());
            else if (eat('/')) e = binary(Expr::Op::Div, std::move(e), unary());
            else break;
        }
        return e;
    }
    Expr unary() {
        if (eat('-')) {
            if (++depth_ > 64) fail("expression nested deeper than 64 levels");
            Expr e;
            e.op = Expr::Op::Neg;
            e.args.push_back(unary());
            --depth_;
            return e;
        }
        return primary();
    }
    Expr primary() {
        skip();
        if (pos_ >= s_.size()) fail("expression ends too early");
        char c = s_[pos_];
        if (c == '(') {
            ++pos_;
            Expr e = expr();
            if (!eat(')')) fail("missing ')'");
            return e;
        }
        if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
            size_t used = 0;
            Expr e;
            try {
                e.number = std::stod(s_.substr(pos_), &used);
            } catch (const std::exception&) {
                fail("bad number");
            }
            if (!std::isfinite(e.number)) fail("number out of range");
            pos_ += used;
            return e;
        }
        if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
            size_t start = pos_;
            while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) ++pos_;
            Expr e;
            e.name = s_.substr(start, pos_ - start);
            if (!eat('(')) {
                e.op = Expr::Op::Ref;
                return e;
            }
            e.op = Expr::Op::Call;
            if (!eat(')')) {
                do e.args.push_back(expr());
                while (eat(','));
                if (!eat(')')) fail("missing ')' after the arguments of " + e.name);
            }
            return e;
        }
        fail(std::string("unexpected '") + c + "'");
    }

    const std::string& s_;
    size_t pos_ = 0;
    int depth_ = 0;
};

std::string numberText(double v) {
    std::ostringstream o;
    o.precision(9);
    o << v;
    return o.str();
}

// Checks names, functions and arities of one expression against what is in scope.
class Checker {
public:
    Checker(const std::string& kind, const std::set<std::string>& inputs, const std::set<std::string>& attrs,
            const std::set<std::string>& dims)
        : kind_(kind), inputs_(inputs), attrs_(attrs), dims_(dims) {}
    void addLet(const std::string& n) { lets_.insert(n); }
    bool known(const std::string& n) const {
        return inputs_.count(n) || attrs_.count(n) || dims_.count(n) || lets_.count(n) ||
               ((kind_ == "matmul" || kind_ == "window") && n == "acc");
    }
    void check(const Expr& e, const std::string& field) const {
        switch (e.op) {
        case Expr::Op::Number: return;
        case Expr::Op::Ref:
            if (!known(e.name))
                throw std::invalid_argument("field '" + field + "': unknown name '" + e.name +
                                            "' (use an input, an attr, a shape symbol, an earlier let" +
                                            (kind_ == "matmul" || kind_ == "window" ? std::string(" or acc") : std::string()) + ")");
            return;
        case Expr::Op::Call: {
            const FunctionInfo* f = findFunction(e.name);
            if (!f) throw std::invalid_argument("field '" + field + "': unknown function '" + e.name + "'");
            if (int(e.args.size()) != f->arity)
                throw std::invalid_argument("field '" + field + "': " + e.name + " takes " + std::to_string(f->arity) +
                                            " argument(s), got " + std::to_string(e.args.size()));
            const bool argReduce = e.name == "row_argmax" || e.name == "row_argmin";
            if (argReduce && kind_ != "axis")
                throw std::invalid_argument("field '" + field + "': " + e.name + " needs \"kind\": \"axis\"");
            if (f->kind == "row_reduce" && kind_ != "rowwise" && kind_ != "axis")
                throw std::invalid_argument("field '" + field + "': " + e.name + " needs \"kind\": \"rowwise\" or \"axis\"");
            if ((f->kind == "row_scan" || f->kind == "rows_total") && kind_ != "rowwise")
                throw std::invalid_argument("field '" + field + "': " + e.name + " needs \"kind\": \"rowwise\"");
            if (f->kind == "gather" && kind_ != "rowwise")
                throw std::invalid_argument("field '" + field + "': gather needs \"kind\": \"rowwise\"");
            if (f->kind == "all_reduce" && kind_ != "reduce_all")
                throw std::invalid_argument("field '" + field + "': " + e.name + " needs \"kind\": \"reduce_all\"");
            if (f->kind == "gather")
                for (const auto& a : e.args)
                    if (a.op != Expr::Op::Ref || !inputs_.count(a.name))
                        throw std::invalid_argument("field '" + field + "': gather takes two input names, e.g. gather(x, target)");
            break;
        }
        default: break;
        }
        for (const auto& a : e.args) check(a, field);
    }

private:
    std::string kind_;
    std::set<std::string> inputs_, attrs_, dims_, lets_;
};

} // namespace

std::string Expr::text() const {
    switch (op) {
    case Op::Number: return numberText(number);
    case Op::Ref: return name;
    case Op::Neg: return "(-" + args[0].text() + ")";
    case Op::Add: return "(" + args[0].text() + " + " + args[1].text() + ")";
    case Op::Sub: return "(" + args[0].text() + " - " + args[1].text() + ")";
    case Op::Mul: return "(" + args[0].text() + " * " + args[1].text() + ")";
    case Op::Div: return "(" + args[0].text() + " / " + args[1].text() + ")";
    case Op::Call: {
        std::string s = name + "(";
        for (size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + args[i].text();
        return s + ")";
    }
    }
    return "";
}

Expr parseExpression(const std::string& text) { return Parser(text).parseAll(); }

const std::vector<FunctionInfo>& functionTable() {
    static const std::vector<FunctionInfo> table = {
        {"exp", 1, "elementwise"},     {"ln", 1, "elementwise"},       {"log", 1, "elementwise"},
        {"sqrt", 1, "elementwise"},    {"rsqrt", 1, "elementwise"},    {"recip", 1, "elementwise"},
        {"abs", 1, "elementwise"},     {"relu", 1, "elementwise"},     {"sigmoid", 1, "elementwise"},
        {"tanh", 1, "elementwise"},    {"gelu", 1, "elementwise"},     {"silu", 1, "elementwise"},
        {"softplus", 1, "elementwise"}, {"square", 1, "elementwise"},  {"max", 2, "elementwise"},
        {"min", 2, "elementwise"},     {"leaky_relu", 2, "elementwise"}, {"erf", 1, "elementwise"},
        {"pow", 2, "elementwise"},
        {"row_sum", 1, "row_reduce"},  {"row_max", 1, "row_reduce"},   {"row_min", 1, "row_reduce"},
        {"row_mean", 1, "row_reduce"}, {"row_argmax", 1, "row_reduce"}, {"row_argmin", 1, "row_reduce"},
        {"gather", 2, "gather"},
        {"row_scan_sum", 1, "row_scan"}, {"row_scan_prod", 1, "row_scan"}, {"row_scan_sum_rev", 1, "row_scan"},
        {"all_sum", 1, "rows_total"},  {"all_mean", 1, "rows_total"},
        {"sum", 1, "all_reduce"},      {"mean", 1, "all_reduce"},      {"amax", 1, "all_reduce"},
    };
    return table;
}

const FunctionInfo* findFunction(const std::string& name) {
    for (const auto& f : functionTable())
        if (f.name == name) return &f;
    return nullptr;
}

namespace {

bool isIdentifier(const std::string& s) {
    return !s.empty() && (std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_') &&
           std::all_of(s.begin(), s.end(), [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; });
}

// compute.split: each split input leaves `inputs` and its parts join them.
std::vector<std::pair<std::string, std::vector<std::string>>> parseSplit(const json& j, const std::string& kind,
                                                                        std::set<std::string>& inputs,
                                                                        const std::set<std::string>& attrs) {
    auto bad = [](const std::string& field, const std::string& what) { throw std::invalid_argument("field '" + field + "': " + what); };
    if (kind != "elementwise") bad("compute.split", "only an elementwise spec splits an input into parts");
    if (!j.is_object() || j.empty()) bad("compute.split", "must be an object: input name -> [part name, ...]");
    std::vector<std::pair<std::string, std::vector<std::string>>> out;
    for (const auto& [input, parts] : j.items()) {
        const std::string field = "compute.split." + input;
        if (!inputs.count(input)) bad(field, "'" + input + "' is not an input");
        if (!parts.is_array() || parts.size() < 2 || parts.size() > 8) bad(field, "must list 2 to 8 part names");
        std::vector<std::string> names;
        for (const auto& p : parts) {
            if (!p.is_string() || !isIdentifier(p.get<std::string>())) bad(field, "a part name must be an identifier");
            const std::string n = p.get<std::string>();
            if (inputs.count(n) || attrs.count(n) || findFunction(n)) bad(field, "'" + n + "' is already a name");
            inputs.insert(n);
            names.push_back(n);
        }
        inputs.erase(input);
        out.emplace_back(input, names);
    }
    return out;
}

} // namespace

ComputeSpec ComputeSpec::parse(const json& j, const Names& names) {
    auto bad = [](const std::string& field, const std::string& what) {
        throw std::invalid_argument("field '" + field + "': " + what);
    };
    if (!j.is_object()) bad("compute", "must be an object with \"kind\" and \"out\"");
    static const std::set<std::string> keys = {"kind", "compute_dtype", "let", "out", "a", "b", "row_axes", "row_lead_axes", "axis", "layout", "window", "split", "note"};
    for (auto& [k, v] : j.items())
        if (!keys.count(k))
            bad("compute." + k, "unknown field (kind, compute_dtype, let, out, a, b, row_axes, row_lead_axes, axis, layout, window, split, note)");
    ComputeSpec c;
    c.present = true;
    if (!j.contains("kind") || !j["kind"].is_string()) bad("compute.kind", "must be a string");
    c.kind = j["kind"].get<std::string>();
    if (c.kind != "elementwise" && c.kind != "rowwise" && c.kind != "axis" && c.kind != "reduce_all" && c.kind != "matmul" &&
        c.kind != "window")
        bad("compute.kind", "'" + c.kind + "' is not one of elementwise, rowwise, axis, reduce_all, matmul, window");
    if (c.kind == "axis") {
        if (!j.contains("axis") || !j["axis"].is_number_integer() || j["axis"].get<int64_t>() < 0 || j["axis"].get<int64_t>() > 7)
            bad("compute.axis", "an axis spec names the reduced axis: an integer from 0 to 7");
        c.axis = int(j["axis"].get<int64_t>());
    } else if (j.contains("axis")) {
        bad("compute.axis", "only an axis spec has axis");
    }
    if (j.contains("compute_dtype")) {
        if (!j["compute_dtype"].is_string()) bad("compute.compute_dtype", "must be a string");
        c.computeDtype = j["compute_dtype"].get<std::string>();
        if (c.computeDtype != "float32" && c.computeDtype != "float16")
            bad("compute.compute_dtype", "'" + c.computeDtype + "' is not float32 or float16");
    }
    if (j.contains("row_axes")) {
        if (c.kind != "rowwise") bad("compute.row_axes", "only a rowwise spec has row_axes");
        if (!j["row_axes"].is_number_integer() || j["row_axes"].get<int64_t>() < 1 || j["row_axes"].get<int64_t>() > 8)
            bad("compute.row_axes", "must be an integer from 1 to 8 (how many trailing axes make one row)");
        c.rowAxes = int(j["row_axes"].get<int64_t>());
    }
    if (j.contains("row_lead_axes")) {
        if (c.kind != "rowwise") bad("compute.row_lead_axes", "only a rowwise spec has row_lead_axes");
        if (!j["row_lead_axes"].is_number_integer() || j["row_lead_axes"].get<int64_t>() < 0 || j["row_lead_axes"].get<int64_t>() > 7)
            bad("compute.row_lead_axes", "must be an integer from 0 to 7 (how many leading axes also belong to a row)");
        c.rowLeadAxes = int(j["row_lead_axes"].get<int64_t>());
    }
    std::set<std::string> inputs(names.inputs.begin(), names.inputs.end());
    const std::set<std::string> attrs(names.attrs.begin(), names.attrs.end());
    if (j.contains("split")) c.split = parseSplit(j["split"], c.kind, inputs, attrs);
    std::set<std::string> dims;
    for (const auto& d : names.dims)
        if (!inputs.count(d) && !attrs.count(d)) dims.insert(d);
    Checker checker(c.kind, inputs, attrs, dims);
    auto parseField = [&](const json& v, const std::string& field) {
        if (!v.is_string() || v.get<std::string>().empty()) bad(field, "must be a non-empty expression string");
        try {
            return parseExpression(v.get<std::string>());
        } catch (const ExprSyntaxError& e) {
            bad(field, std::string(e.what()) + " at column " + std::to_string(e.column) + " of \"" + v.get<std::string>() + "\"");
        }
        return Expr{};  // not reached: bad() throws
    };
    if (c.kind == "matmul") {
        for (const char* k : {"a", "b"}) {
            std::string f = std::string("compute.") + k;
            if (!j.contains(k) || !j[k].is_string()) bad(f, "must name an input (the matmul operand)");
            std::string n = j[k].get<std::string>();
            if (!inputs.count(n)) bad(f, "'" + n + "' is not an input");
            (k[0] == 'a' ? c.a : c.b) = n;
        }
        if (j.contains("layout")) c.layout = parseMatmulLayout(j["layout"]);
    } else if (j.contains("a") || j.contains("b") || j.contains("layout")) {
        bad(j.contains("a") ? "compute.a" : j.contains("b") ? "compute.b" : "compute.layout",
            "only a matmul has operands a and b and their layout");
    }
    if (c.kind == "window") c.window = parseWindowSpec(j.contains("window") ? j["window"] : json(), names);
    else if (j.contains("window")) bad("compute.window", "only a \"kind\": \"window\" spec has a window");
    if (j.contains("let")) {
        const json& lets = j["let"];
        if (!lets.is_array()) bad("compute.let", "must be an array of {\"name\": ..., \"expr\": ...}");
        for (size_t i = 0; i < lets.size(); ++i) {
            std::string p = "compute.let[" + std::to_string(i) + "]";
            if (!lets[i].is_object() || !lets[i].contains("name") || !lets[i]["name"].is_string())
                bad(p + ".name", "must be a string");
            ComputeStep s;
            s.name = lets[i]["name"].get<std::string>();
            s.field = p + ".expr";
            if (!isIdentifier(s.name)) bad(p + ".name", "must be an identifier");
            if (checker.known(s.name) || findFunction(s.name)) bad(p + ".name", "'" + s.name + "' is already a name");
            if (!lets[i].contains("expr")) bad(s.field, "missing");
            s.expr = parseField(lets[i]["expr"], s.field);
            checker.check(s.expr, s.field);
            checker.addLet(s.name);
            c.lets.push_back(std::move(s));
        }
    }
    if (!j.contains("out") || !j["out"].is_object()) bad("compute.out", "must be an object: output name -> expression");
    for (auto& [k, v] : j["out"].items())
        if (std::find(names.outputs.begin(), names.outputs.end(), k) == names.outputs.end())
            bad("compute.out." + k, "'" + k + "' is not an output of the task");
    for (const auto& o : names.outputs) {
        std::string field = "compute.out." + o;
        if (!j["out"].contains(o)) bad(field, "missing: every output needs an expression");
        ComputeStep s;
        s.name = o;
        s.field = field;
        s.expr = parseField(j["out"][o], field);
        checker.check(s.expr, field);
        c.outputs.push_back(std::move(s));
    }
    return c;
}

json ComputeSpec::toJson() const {
    json j = {{"kind", kind}};
    if (!computeDtype.empty()) j["compute_dtype"] = computeDtype;
    if (!lets.empty()) {
        j["let"] = json::array();
        for (const auto& l : lets) j["let"].push_back({{"name", l.name}, {"expr", l.expr.text()}});
    }
    j["out"] = json::object();
    for (const auto& o : outputs) j["out"][o.name] = o.expr.text();
    if (rowAxes != 1) j["row_axes"] = rowAxes;
    if (rowLeadAxes != 0) j["row_lead_axes"] = rowLeadAxes;
    if (kind == "axis") j["axis"] = axis;
    if (kind == "matmul") {
        j["a"] = a;
        j["b"] = b;
        if (!layout.toJson().empty()) j["layout"] = layout.toJson();
    }
    if (kind == "window") j["window"] = window.toJson();
    for (const auto& [input, parts] : split) j["split"][input] = parts;
    return j;
}

} // namespace sage::eval
