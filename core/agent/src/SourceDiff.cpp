#include "SourceDiff.h"

#include <dtl/dtl.hpp>
#include <sstream>
#include <vector>

namespace sage::agent {
namespace {
std::vector<std::string> splitLines(const std::string& s) {
    std::vector<std::string> lines;
    std::istringstream in(s);
    std::string line;
    while (std::getline(in, line)) lines.push_back(line);
    return lines;
}
} // namespace

std::string unifiedDiff(const std::string& before, const std::string& after, const std::string& name) {
    auto a = splitLines(before), b = splitLines(after);
    dtl::Diff<std::string> d(a, b);
    d.compose();
    d.composeUnifiedHunks();
    std::ostringstream out;
    if (d.getEditDistance() == 0) return "";
    out << "--- a/" << name << "\n+++ b/" << name << "\n";
    d.printUnifiedFormat(out);
    return out.str();
}

std::string addedLines(const std::string& diff) {
    std::istringstream in(diff);
    std::string line, out;
    while (std::getline(in, line))
        if (line.size() > 0 && line[0] == '+' && line.rfind("+++", 0) != 0) out += line.substr(1) + "\n";
    return out;
}

} // namespace sage::agent
