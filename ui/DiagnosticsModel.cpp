#include "ui/DiagnosticsModel.h"
#include "ui/CoreText.h"

#include <QApplication>
#include <QBrush>
#include <QColor>
#include <QIcon>
#include <QStyle>

#include <algorithm>

namespace sage::ui {

DiagnosticsModel::DiagnosticsModel(QObject* parent) : QAbstractTableModel(parent) {}

void DiagnosticsModel::setDiagnostics(std::vector<toolchain::Diagnostic> diagnostics, const QString& candidate) {
    beginResetModel();
    rows_ = std::move(diagnostics);
    candidate_ = candidate;
    endResetModel();
}

void DiagnosticsModel::clear() {
    beginResetModel();
    rows_.clear();
    endResetModel();
}

bool DiagnosticsModel::inCandidate(int row) const {
    const auto& d = rows_[size_t(row)];
    return d.line > 0 && (d.file.empty() || QString::fromStdString(d.file) == candidate_);
}

int DiagnosticsModel::errorCount() const {
    return int(std::count_if(rows_.begin(), rows_.end(), [](const auto& d) { return d.severity == toolchain::Severity::Error; }));
}

int DiagnosticsModel::warningCount() const {
    return int(std::count_if(rows_.begin(), rows_.end(), [](const auto& d) { return d.severity == toolchain::Severity::Warning; }));
}

int DiagnosticsModel::nextLocated(int row, bool forward) const {
    const int n = int(rows_.size());
    if (n == 0) return -1;
    int start = row < 0 ? (forward ? -1 : n) : row;
    for (int step = 1; step <= n; ++step) {
        int r = ((start + (forward ? step : -step)) % n + n) % n;
        if (inCandidate(r)) return r;
    }
    return -1;
}

int DiagnosticsModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(rows_.size()); }
int DiagnosticsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant DiagnosticsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
    const auto& d = rows_[size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case SeverityColumn: return QString::fromUtf8(toString(d.severity).data());
        case LineColumn: return d.line > 0 ? QVariant(d.line) : QVariant();
        case ColumnColumn: return d.column > 0 ? QVariant(d.column) : QVariant();
        case KindColumn: return coreText(d.kind.name());
        case MessageColumn:
            if (!d.file.empty() && QString::fromStdString(d.file) != candidate_)
                return QStringLiteral("%1: %2").arg(QString::fromStdString(d.file), QString::fromStdString(d.message));
            return QString::fromStdString(d.message);
        case NotesColumn: {
            QStringList notes;
            for (const auto& n : d.notes)
                notes << (n.line > 0 ? QStringLiteral("line %1: %2").arg(n.line).arg(QString::fromStdString(n.message))
                                     : QString::fromStdString(n.message));
            return notes.join(QStringLiteral("; "));
        }
        }
        return {};
    case Qt::ToolTipRole: {
        QString tip = QStringLiteral("%1:%2:%3: %4: %5")
                          .arg(QString::fromStdString(d.file.empty() ? candidate_.toStdString() : d.file))
                          .arg(d.line)
                          .arg(d.column)
                          .arg(QString::fromUtf8(toString(d.severity).data()), QString::fromStdString(d.message));
        for (const auto& n : d.notes)
            tip += QStringLiteral("\n  note: line %1: %2").arg(n.line).arg(QString::fromStdString(n.message));
        return tip;
    }
    case Qt::DecorationRole:
        if (index.column() != SeverityColumn) return {};
        return QApplication::style()->standardIcon(d.severity == toolchain::Severity::Error     ? QStyle::SP_MessageBoxCritical
                                                   : d.severity == toolchain::Severity::Warning ? QStyle::SP_MessageBoxWarning
                                                                             : QStyle::SP_MessageBoxInformation);
    case Qt::ForegroundRole:
        if (!inCandidate(index.row())) return QBrush(QColor(0x80, 0x80, 0x80));
        return {};
    case LineRole: return inCandidate(index.row()) ? d.line : 0;
    case ColumnRole: return d.column;
    case SeverityRole: return QString::fromUtf8(toString(d.severity).data());
    case InCandidateRole: return inCandidate(index.row());
    }
    return {};
}

QVariant DiagnosticsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    static const char* names[] = {"Severity", "Line", "Col", "Kind", "Message", "Notes"};
    static_assert(sizeof(names) / sizeof(*names) == ColumnCount, "one header a column");
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

} // namespace sage::ui
