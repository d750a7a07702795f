// The diagnostics of one evaluation as a table: compiler and checker messages, then simulator
// messages (capacity, alignment, races, out of bounds ...), each with severity, line, column,
// kind, message and notes. Rows whose file is the candidate carry its line in LineRole.
#pragma once

#include "sage_toolchain/Diagnostic.h"

#include <QAbstractTableModel>

#include <vector>

namespace sage::ui {

class DiagnosticsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { SeverityColumn, LineColumn, ColumnColumn, KindColumn, MessageColumn, NotesColumn, ColumnCount };
    enum Role {
        LineRole = Qt::UserRole + 1,  // 1-based line in the candidate, 0 when the message is elsewhere
        ColumnRole,
        SeverityRole,                 // "error" | "warning" | "note"
        InCandidateRole,              // bool
    };

    explicit DiagnosticsModel(QObject* parent = nullptr);

    // `candidate`: the file name diagnostics use for the candidate (EvalRequest::kernelName).
    void setDiagnostics(std::vector<toolchain::Diagnostic> diagnostics, const QString& candidate);
    void clear();
    const toolchain::Diagnostic& diagnostic(int row) const { return rows_[size_t(row)]; }
    bool inCandidate(int row) const;
    int errorCount() const;
    int warningCount() const;
    // The next/previous row (wrapping) after `row` that points into the candidate; -1 when none.
    int nextLocated(int row, bool forward) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<toolchain::Diagnostic> rows_;
    QString candidate_;
};

} // namespace sage::ui
