#include "ui/LineDiff.h"

#include <algorithm>

namespace sage::ui {

std::vector<DiffRow> LineDiff::compute(const QStringList& a, const QStringList& b) {
    // Common prefix and suffix first: most candidate pairs differ in a few lines.
    int prefix = 0;
    while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix]) ++prefix;
    int suffix = 0;
    while (suffix < a.size() - prefix && suffix < b.size() - prefix &&
           a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix])
        ++suffix;
    const int n = int(a.size()) - prefix - suffix, m = int(b.size()) - prefix - suffix;

    std::vector<DiffRow> raw;  // Same / Removed / Added, in order
    for (int i = 0; i < prefix; ++i) raw.push_back({DiffRow::Kind::Same, i, i});
    if (size_t(n) * size_t(m) <= 4'000'000) {
        std::vector<std::vector<int>> lcs(size_t(n) + 1, std::vector<int>(size_t(m) + 1, 0));
        for (int i = n - 1; i >= 0; --i)
            for (int j = m - 1; j >= 0; --j)
                lcs[size_t(i)][size_t(j)] = a[prefix + i] == b[prefix + j]
                                                ? lcs[size_t(i) + 1][size_t(j) + 1] + 1
                                                : std::max(lcs[size_t(i) + 1][size_t(j)], lcs[size_t(i)][size_t(j) + 1]);
        int i = 0, j = 0;
        while (i < n || j < m) {
            if (i < n && j < m && a[prefix + i] == b[prefix + j]) {
                raw.push_back({DiffRow::Kind::Same, prefix + i++, prefix + j++});
            } else if (j < m && (i == n || lcs[size_t(i)][size_t(j) + 1] >= lcs[size_t(i) + 1][size_t(j)])) {
                raw.push_back({DiffRow::Kind::Added, -1, prefix + j++});
            } else {
                raw.push_back({DiffRow::Kind::Removed, prefix + i++, -1});
            }
        }
    } else {  // too large to align: everything in between changed
        for (int i = 0; i < n; ++i) raw.push_back({DiffRow::Kind::Removed, prefix + i, -1});
        for (int j = 0; j < m; ++j) raw.push_back({DiffRow::Kind::Added, -1, prefix + j});
    }
    for (int k = 0; k < suffix; ++k)
        raw.push_back({DiffRow::Kind::Same, int(a.size()) - suffix + k, int(b.size()) - suffix + k});

    // Pair each block of removals with the following block of additions.
    std::vector<DiffRow> rows;
    for (size_t k = 0; k < raw.size();) {
        if (raw[k].kind == DiffRow::Kind::Same) {
            rows.push_back(raw[k++]);
            continue;
        }
        std::vector<int> removed, added;
        while (k < raw.size() && raw[k].kind != DiffRow::Kind::Same) {
            if (raw[k].kind == DiffRow::Kind::Removed) removed.push_back(raw[k].left);
            else added.push_back(raw[k].right);
            ++k;
        }
        const size_t both = std::min(removed.size(), added.size());
        for (size_t x = 0; x < both; ++x) rows.push_back({DiffRow::Kind::Changed, removed[x], added[x]});
        for (size_t x = both; x < removed.size(); ++x) rows.push_back({DiffRow::Kind::Removed, removed[x], -1});
        for (size_t x = both; x < added.size(); ++x) rows.push_back({DiffRow::Kind::Added, -1, added[x]});
    }
    return rows;
}

int LineDiff::changedRows(const std::vector<DiffRow>& rows) {
    return int(std::count_if(rows.begin(), rows.end(), [](const DiffRow& r) { return r.kind != DiffRow::Kind::Same; }));
}

} // namespace sage::ui
