// A side-by-side diff of two candidate kernels (an iteration against its parent, the editor
// against the task's baseline, or any pair the user picks), with aligned rows, coloured changes
// and synchronised scrolling.
#pragma once

#include <QWidget>

#include <utility>
#include <vector>

class QComboBox;
class QLabel;
class QsciScintilla;

namespace sage::ui {

struct NamedSource {
    QString name;
    QString text;
};

class CandidateDiffView : public QWidget {
    Q_OBJECT
public:
    explicit CandidateDiffView(QWidget* parent = nullptr);
    // The candidates offered in the two pickers (the current selection is kept by name); the
    // panes show the picked pair at once.
    void setCandidates(const std::vector<NamedSource>& candidates);
    void compare(const NamedSource& left, const NamedSource& right);
    int changedRows() const { return changed_; }
    QString leftText() const;
    QString rightText() const;
    // Where the first change starts in the panes (row, column), or {-1, -1} when identical.
    std::pair<int, int> firstChange() const { return firstChange_; }
    // Whether that column is inside both panes' visible text area.
    bool firstChangeInView() const;
    // Pixels either pane is scrolled to the right (0: lines show from their first column).
    long horizontalOffset() const;

private:
    void compareSelected();
    void scrollToFirstChange();
    QComboBox *leftPick_, *rightPick_;
    QLabel* summary_;
    QsciScintilla *left_, *right_;
    std::vector<NamedSource> candidates_;
    int changed_ = 0;
    std::pair<int, int> firstChange_{-1, -1};
    std::vector<std::pair<int, int>> changes_;  // (row, column where the versions part) per changed row
};

} // namespace sage::ui
