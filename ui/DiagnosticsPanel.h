// The diagnostics dock: a table of the last evaluation's diagnostics with a one-line status.
// Clicking (or Enter on) a row, F8 and Shift+F8 move the editor to the diagnostic's line.
#pragma once

#include <QWidget>

class QLabel;
class QTableView;

namespace sage::ui {

class DiagnosticsModel;

class DiagnosticsPanel : public QWidget {
    Q_OBJECT
public:
    explicit DiagnosticsPanel(DiagnosticsModel* model, QWidget* parent = nullptr);
    QTableView* view() const { return view_; }
    void setStatus(const QString& html);  // the line above the table ("2 errors · stale")
    // Selects the next/previous diagnostic that points into the candidate and jumps to it.
    void next();
    void previous();

signals:
    void lineActivated(int line, int column);

private:
    void activate(int row);
    DiagnosticsModel* model_;
    QTableView* view_;
    QLabel* status_;
};

} // namespace sage::ui
