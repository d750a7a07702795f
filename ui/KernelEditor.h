// The kernel editor: QScintilla with the C++ lexer, line numbers, folding, diagnostics as margin
// marks and inline annotations, and a margin heatmap of cycles per source line. It counts
// revisions of its text so results can be matched to the text they were computed from.
#pragma once

#include <Qsci/qsciscintilla.h>

#include <QString>

#include "sage_toolchain/Diagnostic.h"

#include <cstdint>
#include <vector>

namespace sage::ui {

struct EditorMark {
    int line = 0;  // 1-based
    int column = 0;
    toolchain::Severity severity = toolchain::Severity::Error;
    QString message;
};

struct LineHeat {
    int line = 0;  // 1-based
    quint64 cycles = 0;
};

class KernelEditor : public QsciScintilla {
    Q_OBJECT
public:
    enum Margin { LineNumberMargin = 0, MarkMargin = 1, HeatMargin = 2, FoldMargin = 3 };
    static constexpr int kErrorMarker = 0, kWarningMarker = 1, kNoteMarker = 2, kJumpMarker = 3;
    static constexpr int kHeatMarker0 = 8, kHeatLevels = 8;

    explicit KernelEditor(QWidget* parent = nullptr);

    quint64 revision() const { return revision_; }
    void setSource(const QString& text);  // replaces the text (a new revision), clears marks

    void setMarks(const std::vector<EditorMark>& marks);
    void clearMarks();
    int markCount() const { return int(marks_.size()); }
    void setHeat(const std::vector<LineHeat>& heat);
    void clearHeat();
    int heatLevel(int line) const;  // 0 = none, 1..kHeatLevels; line is 1-based
    quint64 heatCycles(int line) const;

    void goToLine(int line, int column = 1);  // 1-based; highlights the line briefly
    int cursorLine() const;                   // 1-based

signals:
    void revisionChanged(quint64 revision);

private:
    void showHeatTip(int position, int x, int y);
    quint64 revision_ = 0;
    std::vector<EditorMark> marks_;
    std::vector<quint64> heat_;  // per 0-based line
    quint64 heatMax_ = 0;
};

} // namespace sage::ui
