// A line diff of two texts (longest common subsequence), aligned for a side-by-side view: each
// row holds a line of the left text, of the right text, or both. A removed line next to an added
// line becomes one "changed" row.
#pragma once

#include <QStringList>

#include <vector>

namespace sage::ui {

struct DiffRow {
    enum class Kind { Same, Removed, Added, Changed };
    Kind kind = Kind::Same;
    int left = -1;   // 0-based line in the left text, -1 when none
    int right = -1;  // 0-based line in the right text, -1 when none
};

class LineDiff {
public:
    static std::vector<DiffRow> compute(const QStringList& left, const QStringList& right);
    static int changedRows(const std::vector<DiffRow>& rows);
};

} // namespace sage::ui
