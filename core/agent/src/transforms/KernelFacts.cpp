#include "transforms/KernelFacts.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <regex>
#include <set>
#include <sstream>

namespace sage::agent::kernel {

std::vector<std::string> splitLines(const std::string& source) {
    std::vector<std::string> out;
    std::istringstream in(source);
    std::string l;
    while (std::getline(in, l)) out.push_back(l);
    return out;
}

std::string joinLines(const std::vector<std::string>& lines, const std::string& like) {
    std::string out;
    for (size_t i = 0; i < lines.size(); ++i) {
        if (i) out += '\n';
        out += lines[i];
    }
    if (!like.empty() && like.back() == '\n') out += '\n';
    return out;
}

namespace {

long long sizeOfType(const std::string& t) {
    static const std::map<std::string, long long> sizes = {
        {"half", 2},     {"float", 4},    {"bfloat16_t", 2}, {"int8_t", 1},  {"uint8_t", 1},   {"int16_t", 2},
        {"uint16_t", 2}, {"int32_t", 4},  {"uint32_t", 4},   {"int64_t", 8}, {"uint64_t", 8},  {"int", 4},
        {"float16_t", 2}, {"float32_t", 4}, {"double", 8},   {"char", 1},    {"size_t", 8}};
    auto it = sizes.find(t);
    return it == sizes.end() ? -1 : it->second;
}

bool isIntegralType(const std::string& t) {
    return t == "int" || t == "unsigned" || t == "long" || t == "size_t" || t == "int8_t" || t == "uint8_t" ||
           t == "int16_t" || t == "uint16_t" || t == "int32_t" || t == "uint32_t" || t == "int64_t" || t == "uint64_t";
}

// Recursive descent over a token list; any unknown token makes the whole value unknown.
class Parser {
public:
    Parser(const std::string& text, const std::map<std::string, long long>& names, bool* inexact)
        : s_(text), names_(names), inexact_(inexact) {}
    std::optional<long long> run() {
        auto v = sum();
        skip();
        if (!v || pos_ != s_.size()) return std::nullopt;
        return v;
    }

private:
    void skip() {
        while (pos_ < s_.size() && std::isspace((unsigned char)s_[pos_])) ++pos_;
    }
    bool eat(char c) {
        skip();
        if (pos_ < s_.size() && s_[pos_] == c) {
            ++pos_;
            return true;
        }
        return false;
    }
    std::string word() {
        skip();
        size_t b = pos_;
        while (pos_ < s_.size() && (std::isalnum((unsigned char)s_[pos_]) || s_[pos_] == '_' || s_[pos_] == ':')) ++pos_;
        return s_.substr(b, pos_ - b);
    }
    std::optional<long long> sum() {
        auto v = product();
        while (v) {
            if (eat('+')) {
                auto r = product();
                if (!r) return std::nullopt;
                *v += *r;
            } else if (eat('-')) {
                auto r = product();
                if (!r) return std::nullopt;
                *v -= *r;
            } else break;
        }
        return v;
    }
    std::optional<long long> product() {
        auto v = unary();
        while (v) {
            char op = 0;
            if (eat('*')) op = '*';
            else if (eat('/')) op = '/';
            else if (eat('%')) op = '%';
            else break;
            auto r = unary();
            if (!r) return std::nullopt;
            if (op == '*') *v *= *r;
            else {
                if (*r == 0) return std::nullopt;
                if (op == '/' && *v % *r != 0 && inexact_) *inexact_ = true;
                *v = op == '/' ? *v / *r : *v % *r;
            }
        }
        return v;
    }
    std::optional<long long> unary() {
        if (eat('-')) {
            auto v = unary();
            return v ? std::optional<long long>(-*v) : std::nullopt;
        }
        return primary();
    }
    std::optional<long long> primary() {
        skip();
        if (pos_ >= s_.size()) return std::nullopt;
        if (s_[pos_] == '(') {
            size_t save = pos_;
            ++pos_;
            std::string w = word();
            if (!w.empty() && isIntegralType(w.substr(w.rfind(':') == std::string::npos ? 0 : w.rfind(':') + 1)) && eat(')'))
                return unary();  // a cast to an integral type keeps the value
            pos_ = save + 1;
            auto v = sum();
            if (!v || !eat(')')) return std::nullopt;
            return v;
        }
        if (std::isdigit((unsigned char)s_[pos_])) {
            size_t b = pos_;
            while (pos_ < s_.size() && std::isdigit((unsigned char)s_[pos_])) ++pos_;
            long long v = std::stoll(s_.substr(b, std::min<size_t>(pos_ - b, 18)));
            while (pos_ < s_.size() && std::strchr("uUlL", s_[pos_])) ++pos_;
            return v;
        }
        std::string w = word();
        if (w.empty()) return std::nullopt;
        if (w == "sizeof") {
            if (!eat('(')) return std::nullopt;
            std::string t = word();
            if (!eat(')')) return std::nullopt;
            long long n = sizeOfType(t);
            return n > 0 ? std::optional<long long>(n) : std::nullopt;
        }
        auto it = names_.find(w);
        if (it == names_.end()) return std::nullopt;
        return it->second;
    }

    const std::string& s_;
    const std::map<std::string, long long>& names_;
    bool* inexact_;
    size_t pos_ = 0;
};

// Splits a call's argument text at top-level commas.
std::vector<std::string> splitArgs(const std::string& args) {
    std::vector<std::string> out;
    int depth = 0;
    std::string cur;
    for (char c : args) {
        if (c == '(' || c == '{' || c == '[' || c == '<') ++depth;
        if (c == ')' || c == '}' || c == ']' || c == '>') --depth;
        if (c == ',' && depth == 0) {
            out.push_back(cur);
            cur.clear();
        } else cur += c;
    }
    out.push_back(cur);
    return out;
}

} // namespace

std::optional<long long> evaluate(const std::string& expr, const std::map<std::string, long long>& names, bool* inexact) {
    if (expr.size() > 400) return std::nullopt;
    return Parser(expr, names, inexact).run();
}

ConstantTable constants(const std::string& source) {
    static const std::regex decl(
        R"(^\s*(?:static\s+)?(?:constexpr|const)\s+(?:unsigned\s+|signed\s+)?([A-Za-z_][\w:]*)\s+([A-Za-z_]\w*)\s*=\s*([^;]+);)");
    ConstantTable t;
    for (const auto& line : splitLines(source)) {
        std::smatch m;
        if (line.size() > 400 || !std::regex_search(line, m, decl)) continue;
        std::string type = m[1].str();
        type = type.substr(type.rfind(':') == std::string::npos ? 0 : type.rfind(':') + 1);
        if (!isIntegralType(type)) continue;
        bool inexact = false;
        if (auto v = evaluate(m[3].str(), t.values, &inexact)) {
            t.values[m[2].str()] = *v;
            if (inexact) t.inexact.push_back(m[2].str());
        }
    }
    return t;
}

namespace {

// The buffers declared in a position outside the Unified Buffer (L1, L0A/B/C: a cube kernel's
// A1/B1/A2/B2/CO1 queues), whose InitBuffer calls take no UB.
std::set<std::string> buffersOutsideUb(const std::string& source) {
    static const std::regex decl(R"(\b(?:TQue|TQueBind|TBuf)\s*<\s*(?:AscendC::)?(?:TPosition|QuePosition)::(\w+)[^;>]*>\s*([\w\s,]+);)");
    std::set<std::string> out;
    for (auto it = std::sregex_iterator(source.begin(), source.end(), decl); it != std::sregex_iterator(); ++it) {
        const std::string pos = (*it)[1].str();
        if (pos == "VECIN" || pos == "VECOUT" || pos == "VECCALC") continue;
        std::istringstream names((*it)[2].str());
        std::string n;
        while (std::getline(names, n, ','))
            if (n = withoutSpaces(n); !n.empty()) out.insert(n);
    }
    return out;
}

} // namespace

std::optional<long long> ubBytes(const std::string& source) {
    static const std::regex call(R"((?:\.|->)\s*InitBuffer\s*\(([^;]*)\)\s*;)");
    const auto names = constants(source).values;
    const auto elsewhere = buffersOutsideUb(source);
    long long total = 0;
    bool any = false;
    for (auto it = std::sregex_iterator(source.begin(), source.end(), call); it != std::sregex_iterator(); ++it) {
        auto args = splitArgs((*it)[1].str());
        if (!args.empty() && elsewhere.count(withoutSpaces(args[0]))) continue;
        std::optional<long long> num = 1, len;
        if (args.size() == 3) {
            num = evaluate(args[1], names);
            len = evaluate(args[2], names);
        } else if (args.size() == 2) {
            len = evaluate(args[1], names);
        }
        if (!num || !len || *num < 0 || *len < 0) return std::nullopt;
        total += *num * ((*len + 31) / 32 * 32);
        any = true;
    }
    return any ? std::optional<long long>(total) : std::nullopt;
}

std::string pipeOfStatement(const std::string& line) {
    static const std::regex copy(R"(\bDataCopy(?:Pad)?\s*\(\s*([^,]+),\s*([^,]+))");
    static const std::regex vec(
        R"(\b(Add|Sub|Mul|Div|Max|Min|Adds|Muls|Maxs|Mins|Exp|Ln|Abs|Sqrt|Rsqrt|Reciprocal|Relu|Duplicate|Cast|Compare|Select|ReduceSum|ReduceMax|ReduceMin|WholeReduceSum|WholeReduceMax|LeakyRelu|Axpy|Sigmoid|Tanh|Gelu|Not|And|Or|Mmad)\s*(<[^;]*>)?\s*\()");
    std::smatch m;
    if (std::regex_search(line, m, copy)) {
        std::string dst = m[1].str();
        if (dst.find("Gm") != std::string::npos || dst.find("gm") != std::string::npos) return "MTE3";
        return "MTE2";
    }
    if (std::regex_search(line, m, vec)) return "V";
    if (line.find("GetValue") != std::string::npos || line.find("SetValue") != std::string::npos) return "S";
    return "";
}

std::string elementTypeOf(const std::string& source, const std::string& variable) {
    if (variable.empty() || !std::all_of(variable.begin(), variable.end(), [](char c) { return std::isalnum((unsigned char)c) || c == '_'; }))
        return "";
    std::regex decl("(?:Local|Global)Tensor\\s*<\\s*(\\w+)\\s*>[^;]*\\b" + variable + "\\b");
    std::smatch m;
    if (std::regex_search(source, m, decl)) return m[1].str();
    return "";
}

std::string queueTypeOf(const std::string& source, const std::string& name) {
    if (name.empty() || !std::all_of(name.begin(), name.end(), [](char c) { return std::isalnum((unsigned char)c) || c == '_'; }))
        return "";
    std::smatch m;
    if (!std::regex_search(source, m, std::regex(R"((T(?:Que|Buf)\s*<[^;]*>)\s+)" + name + R"(\s*;)"))) return "";
    return withoutSpaces(m[1].str());
}

std::string withoutSpaces(std::string s) {
    s.erase(std::remove_if(s.begin(), s.end(), [](unsigned char c) { return std::isspace(c); }), s.end());
    return s;
}

bool usesBlockSplit(const std::string& source) { return source.find("GetBlockIdx()") != std::string::npos; }

} // namespace sage::agent::kernel
