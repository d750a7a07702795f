// A kernel file with one variant per case variant (a CANN Bench operator's draft, BenchVariants.cpp):
//
//   <head: comment, include, the tunables every variant shares>
//   // sage: case variants below
//   #if <guard 1>
//   <body 1>
//   #elif <guard 2>
//   <body 2>
//   #else
//   <tail>
//   #endif
//
// A move of the optimiser applies to each variant as to a file of its own (head + body), so that a
// knob or a transform changes every variant alike (BuiltinPolicy::apply).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace sage::agent {

struct CaseVariants {
    static constexpr const char* kMarker = "// sage: case variants below";
    std::string head;  // up to and including the marker line
    std::vector<std::pair<std::string, std::string>> blocks;  // (#if / #elif line, body)
    std::string tail;  // from the top-level #else (or #endif) on

    // None when `source` has no marker line or no variant block after it.
    static std::optional<CaseVariants> split(const std::string& source);
    std::string file(size_t i) const { return head + blocks[i].second; }
    std::string join() const;
};

} // namespace sage::agent
