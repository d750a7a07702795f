// The project's one line-diff engine (dtl), exposed for views that align two candidates side by
// side: each row holds a line of the left text, of the right text, or both. A block of removed
// lines followed by added lines is paired into "changed" rows. The unified diffs the loop stores
// come from the same engine (SourceDiff).
#pragma once

#include <string>
#include <vector>

namespace sage::agent {

struct LineDiffRow {
    enum class Kind { Same, Removed, Added, Changed };
    Kind kind = Kind::Same;
    int left = -1;   // 0-based line in the left text, -1 when none
    int right = -1;  // 0-based line in the right text, -1 when none
};

std::vector<LineDiffRow> alignLines(const std::vector<std::string>& left, const std::vector<std::string>& right);
int changedRows(const std::vector<LineDiffRow>& rows);

} // namespace sage::agent
