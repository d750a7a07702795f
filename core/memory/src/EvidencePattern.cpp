#include "sage_memory/EvidencePattern.h"

#include <re2/re2.h>

#include <map>
#include <memory>
#include <mutex>

namespace sage::memory {

namespace {

RE2::Options options() {
    RE2::Options o;
    o.set_log_errors(false);
    o.set_max_mem(8 << 20);  // bounds the automaton of a pathological pattern
    return o;
}

// Compiled patterns are kept per process: the same few dozen patterns are matched every iteration.
// A bounded cache (cleared when full) so that a memory with many distinct patterns cannot grow it.
std::shared_ptr<const RE2> compiled(std::string_view pattern) {
    static std::mutex mutex;
    static std::map<std::string, std::shared_ptr<const RE2>, std::less<>> cache;
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = cache.find(pattern); it != cache.end()) return it->second;
    if (cache.size() > 4096) cache.clear();
    auto re = std::make_shared<const RE2>(re2::StringPiece(pattern.data(), pattern.size()), options());
    cache.emplace(std::string(pattern), re);
    return re;
}

} // namespace

std::optional<std::string> EvidencePattern::problem(std::string_view pattern) {
    if (pattern.size() > kMaxLength)
        return "is " + std::to_string(pattern.size()) + " characters long; patterns are limited to " +
               std::to_string(kMaxLength);
    if (pattern.empty()) return std::nullopt;
    const auto re = compiled(pattern);
    if (re->ok()) return std::nullopt;
    return "is not a valid RE2 pattern (" + re->error() +
           "); RE2 has no backreferences or lookaround, see https://github.com/google/re2/wiki/Syntax";
}

std::vector<std::string> EvidencePattern::matches(std::string_view pattern, std::string_view line) {
    std::vector<std::string> out;
    if (pattern.empty() || pattern.size() > kMaxLength) return out;
    const auto re = compiled(pattern);
    if (!re->ok()) {  // a legacy row: literal substring
        for (std::size_t at = line.find(pattern); at != std::string_view::npos; at = line.find(pattern, at + pattern.size()))
            out.emplace_back(pattern);
        return out;
    }
    re2::StringPiece input(line.data(), line.size());
    re2::StringPiece match;
    std::size_t pos = 0;
    while (pos <= line.size() && re->Match(input, pos, line.size(), RE2::UNANCHORED, &match, 1)) {
        if (!match.empty()) out.emplace_back(match.data(), match.size());  // an empty match shows nothing
        const std::size_t end = static_cast<std::size_t>(match.data() - line.data()) + match.size();
        pos = match.empty() ? end + 1 : end;
    }
    return out;
}

bool EvidencePattern::matchesAny(std::string_view pattern, std::string_view line) {
    if (pattern.empty() || pattern.size() > kMaxLength) return false;
    const auto re = compiled(pattern);
    if (!re->ok()) return line.find(pattern) != std::string_view::npos;
    return !matches(pattern, line).empty();
}

} // namespace sage::memory
