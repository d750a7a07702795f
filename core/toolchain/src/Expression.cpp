#include "sage_toolchain/Expression.h"

#include <cctype>
#include <cmath>
#include <vector>

namespace sage::toolchain {
namespace {

// Expressions come from task files and op specs written elsewhere: each nesting level (a
// parenthesis, a sign, a call) costs a few stack frames, so a million-deep one would overflow
// the stack. Real shapes and tilings nest a few levels and fit in a line.
constexpr int kMaxDepth = 256;
constexpr size_t kMaxLength = 4096;

class Parser {
public:
    Parser(const std::string& s, const std::function<std::optional<double>(const std::string&)>& lookup)
        : s_(s), lookup_(lookup) {}

    double parse() {
        if (s_.size() > kMaxLength)
            throw ExpressionError("expression of " + std::to_string(s_.size()) + " characters (starting '" +
                                  s_.substr(0, 40) + "...'): longer than the " + std::to_string(kMaxLength) +
                                  " an expression may be");
        double v = sum();
        skip();
        if (i_ != s_.size()) fail("unexpected '" + std::string(1, s_[i_]) + "'");
        return v;
    }

private:
    [[noreturn]] void fail(const std::string& what) const {
        throw ExpressionError("in expression '" + s_ + "' at position " + std::to_string(i_ + 1) + ": " + what);
    }
    // One more level of nesting for as long as it lives.
    struct Nested {
        Parser& p;
        explicit Nested(Parser& parser) : p(parser) {
            if (++p.depth_ > kMaxDepth) p.fail("nested deeper than " + std::to_string(kMaxDepth) + " levels");
        }
        ~Nested() { --p.depth_; }
    };
    void skip() {
        while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
    }
    bool eat(char c) {
        skip();
        if (i_ < s_.size() && s_[i_] == c) {
            ++i_;
            return true;
        }
        return false;
    }
    double sum() {
        double v = product();
        for (;;) {
            if (eat('+')) v += product();
            else if (eat('-')) v -= product();
            else return v;
        }
    }
    double product() {
        double v = unary();
        for (;;) {
            if (eat('*')) v *= unary();
            else if (eat('/')) {
                double d = unary();
                if (d == 0) fail("division by zero");
                // Integer operands divide as integers, as C++ tiling code would.
                v = (v == std::floor(v) && d == std::floor(d)) ? std::trunc(v / d) : v / d;
            } else if (eat('%')) {
                double d = unary();
                if (d == 0) fail("modulo by zero");
                v = std::fmod(v, d);
            } else return v;
        }
    }
    double unary() {
        Nested level(*this);
        if (eat('-')) return -unary();
        if (eat('+')) return unary();
        return primary();
    }
    double primary() {
        Nested level(*this);
        skip();
        if (eat('(')) {
            double v = sum();
            if (!eat(')')) fail("missing ')'");
            return v;
        }
        if (i_ < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[i_])) || s_[i_] == '.')) {
            size_t used = 0;
            double v = std::stod(s_.substr(i_), &used);
            i_ += used;
            return v;
        }
        if (i_ < s_.size() && (std::isalpha(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_')) {
            size_t start = i_;
            while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_')) ++i_;
            std::string name = s_.substr(start, i_ - start);
            if (eat('(')) return call(name);
            auto v = lookup_(name);
            if (!v) fail("unknown name '" + name + "'");
            return *v;
        }
        fail(i_ < s_.size() ? "unexpected '" + std::string(1, s_[i_]) + "'" : "unexpected end");
    }
    double call(const std::string& fn) {
        std::vector<double> args{sum()};
        while (eat(',')) args.push_back(sum());
        if (!eat(')')) fail("missing ')' after the arguments of " + fn);
        if (args.size() != 2) fail(fn + " takes two arguments");
        double a = args[0], b = args[1];
        if (fn == "min") return std::min(a, b);
        if (fn == "max") return std::max(a, b);
        if (fn == "ceil_div") {
            if (b == 0) fail("ceil_div by zero");
            return std::ceil(a / b);
        }
        if (fn == "align") {
            if (b == 0) fail("align to zero");
            return std::ceil(a / b) * b;
        }
        fail("unknown function '" + fn + "' (min, max, ceil_div, align)");
    }

    const std::string& s_;
    const std::function<std::optional<double>(const std::string&)>& lookup_;
    size_t i_ = 0;
    int depth_ = 0;
};

} // namespace

double evaluate(const std::string& expr, const std::function<std::optional<double>(const std::string&)>& lookup) {
    return Parser(expr, lookup).parse();
}

} // namespace sage::toolchain
