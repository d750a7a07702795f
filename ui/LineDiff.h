// The side-by-side alignment of two texts for the diff view: a Qt-facing adapter over the core's
// one line-diff engine (sage_agent/LineDiff.h, dtl).
#pragma once

#include "sage_agent/LineDiff.h"

#include <QStringList>

#include <vector>

namespace sage::ui {

using DiffRow = agent::LineDiffRow;

class LineDiff {
public:
    static std::vector<DiffRow> compute(const QStringList& left, const QStringList& right);
    static int changedRows(const std::vector<DiffRow>& rows) { return agent::changedRows(rows); }
};

} // namespace sage::ui
