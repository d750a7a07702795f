#include "SourceDiff.h"

#include "Text.h"
#include "sage_agent/LineDiff.h"

#include <algorithm>
#include <dtl/dtl.hpp>
#include <sstream>
#include <vector>

namespace sage::agent {

std::string unifiedDiff(const std::string& before, const std::string& after, const std::string& name) {
    auto a = text::splitLines(before), b = text::splitLines(after);
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

std::vector<LineDiffRow> alignLines(const std::vector<std::string>& a, const std::vector<std::string>& b) {
    using K = LineDiffRow::Kind;
    std::vector<LineDiffRow> raw;  // Same / Removed / Added, in order
    dtl::Diff<std::string> d(a, b);
    d.compose();
    for (const auto& [line, info] : d.getSes().getSequence()) {
        (void)line;
        const int left = int(info.beforeIdx) - 1, right = int(info.afterIdx) - 1;  // dtl counts from 1
        if (info.type == dtl::SES_COMMON) raw.push_back({K::Same, left, right});
        else if (info.type == dtl::SES_DELETE) raw.push_back({K::Removed, left, -1});
        else raw.push_back({K::Added, -1, right});
    }
    // Pair each block of removals with the additions next to it, for a side-by-side view.
    std::vector<LineDiffRow> rows;
    for (size_t k = 0; k < raw.size();) {
        if (raw[k].kind == K::Same) {
            rows.push_back(raw[k++]);
            continue;
        }
        std::vector<int> removed, added;
        while (k < raw.size() && raw[k].kind != K::Same) {
            if (raw[k].kind == K::Removed) removed.push_back(raw[k].left);
            else added.push_back(raw[k].right);
            ++k;
        }
        const size_t both = std::min(removed.size(), added.size());
        for (size_t x = 0; x < both; ++x) rows.push_back({K::Changed, removed[x], added[x]});
        for (size_t x = both; x < removed.size(); ++x) rows.push_back({K::Removed, removed[x], -1});
        for (size_t x = both; x < added.size(); ++x) rows.push_back({K::Added, -1, added[x]});
    }
    return rows;
}

int changedRows(const std::vector<LineDiffRow>& rows) {
    return int(std::count_if(rows.begin(), rows.end(), [](const LineDiffRow& r) { return r.kind != LineDiffRow::Kind::Same; }));
}

} // namespace sage::agent
