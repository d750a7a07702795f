#include "sage_agent/Tunables.h"

#include "Text.h"

#include <algorithm>
#include <cctype>
#include <regex>
#include <sstream>

namespace sage::agent {
namespace {

using text::lower;

// `constexpr <type> NAME = <int>;  // @tunable key {a, b, c}`
const std::regex& declaration() {
    static const std::regex re(
        R"(^(\s*(?:static\s+)?(?:constexpr|const)\s+[\w:]+\s+)(\w+)(\s*=\s*)(-?\d+)([^\n]*?//\s*@tunable\s+(\w+)\s*(?:\{([^}]*)\})?))");
    return re;
}

} // namespace

std::vector<Tunable> parseTunables(const std::string& source) {
    std::vector<Tunable> out;
    std::istringstream in(source);
    std::string line;
    int n = 0;
    while (std::getline(in, line)) {
        ++n;
        std::smatch m;
        if (!std::regex_search(line, m, declaration())) continue;
        Tunable t;
        t.constant = m[2].str();
        t.value = std::stoll(m[4].str());
        t.key = m[6].str();
        t.line = n;
        std::string list = m[7].str();
        std::regex number(R"(-?\d+)");
        for (auto it = std::sregex_iterator(list.begin(), list.end(), number); it != std::sregex_iterator(); ++it)
            t.allowed.push_back(std::stoll(it->str()));
        out.push_back(t);
    }
    return out;
}

std::optional<Tunable> findTunable(const std::vector<Tunable>& tunables, const std::string& name) {
    const std::string want = lower(name);
    for (const auto& t : tunables)
        if (lower(t.key) == want || lower(t.constant) == want) return t;
    return std::nullopt;
}

std::string setTunable(const std::string& source, const Tunable& t, long long value) {
    std::istringstream in(source);
    std::ostringstream out;
    std::string line;
    int n = 0;
    bool first = true;
    while (std::getline(in, line)) {
        ++n;
        if (!first) out << '\n';
        first = false;
        std::smatch m;
        if (n == t.line && std::regex_search(line, m, declaration()) && m[2].str() == t.constant)
            line = m.prefix().str() + m[1].str() + m[2].str() + m[3].str() + std::to_string(value) + m[5].str() +
                   m.suffix().str();
        out << line;
    }
    if (!source.empty() && source.back() == '\n') out << '\n';
    return out.str();
}

} // namespace sage::agent
