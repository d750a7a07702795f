// Integer/real arithmetic over named values, for launch specs and shape symbols:
// numbers, names, + - * / %, parentheses, min(a,b), max(a,b), ceil_div(a,b), align(a,b).
#pragma once

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>

namespace sage::toolchain {

struct ExpressionError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// `lookup` returns a name's value, or nullopt for an unknown name (an ExpressionError names it).
double evaluate(const std::string& expr, const std::function<std::optional<double>(const std::string&)>& lookup);

} // namespace sage::toolchain
