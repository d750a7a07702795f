#include "ui/MismatchModel.h"

#include <QStringList>

#include <cmath>

namespace sage::ui {

namespace {
QString number(double v) {
    if (std::isnan(v)) return QStringLiteral("NaN");
    if (std::isinf(v)) return v > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
    return QString::number(v, 'g', 7);
}
} // namespace

MismatchModel::MismatchModel(QObject* parent) : QAbstractTableModel(parent) {}

void MismatchModel::setOutput(const eval::OutputCheck* output, std::vector<int64_t> shape) {
    beginResetModel();
    rows_ = output ? output->firstMismatches : std::vector<eval::Mismatch>{};
    shape_ = std::move(shape);
    endResetModel();
}

qint64 MismatchModel::flatIndex(int row) const {
    const auto& idx = rows_[size_t(row)].index;
    if (idx.size() == 1) return idx[0];
    if (shape_.size() != idx.size()) return idx.empty() ? 0 : idx.back();
    qint64 flat = 0;
    for (size_t d = 0; d < idx.size(); ++d) flat = flat * shape_[d] + idx[d];
    return flat;
}

int MismatchModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(rows_.size()); }
int MismatchModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant MismatchModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
    const auto& m = rows_[size_t(index.row())];
    if (role == FlatIndexRole) return flatIndex(index.row());
    if (role == Qt::TextAlignmentRole && index.column() != IndexColumn) return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole) return {};
    switch (index.column()) {
    case IndexColumn: {
        QStringList parts;
        for (auto i : m.index) parts << QString::number(i);
        return QStringLiteral("[%1]").arg(parts.join(QStringLiteral(", ")));
    }
    case ExpectedColumn: return number(m.expected);
    case ActualColumn: return number(m.actual);
    case AbsColumn: return number(m.absError);
    case RelColumn: return number(m.relError);
    }
    return {};
}

QVariant MismatchModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole) return {};
    if (orientation == Qt::Vertical) return section + 1;
    switch (section) {
    case IndexColumn: return tr("Index");
    case ExpectedColumn: return tr("Expected");
    case ActualColumn: return tr("Actual");
    case AbsColumn: return tr("Abs error");
    case RelColumn: return tr("Rel error");
    }
    return {};
}

} // namespace sage::ui
