#include "ui/RangeStatsModel.h"

namespace sage::ui {

RangeStatsModel::RangeStatsModel(QObject* parent) : QAbstractTableModel(parent) {}

void RangeStatsModel::setSummary(const RangeSummary& summary) {
    beginResetModel();
    summary_ = summary;
    endResetModel();
}

void RangeStatsModel::clear() { setSummary({}); }

int RangeStatsModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(summary_.ops.size()); }
int RangeStatsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant RangeStatsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
    const auto& op = summary_.ops[size_t(index.row())];
    if (role == Qt::TextAlignmentRole && index.column() != OpColumn) return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != SortRole) return {};
    switch (index.column()) {
    case OpColumn: return QString::fromStdString(op.op);
    case CountColumn: return quint64(op.count);
    case TotalColumn: return quint64(op.total);
    case MeanColumn: return role == SortRole ? QVariant(op.mean()) : QVariant(QString::number(op.mean(), 'f', 1));
    case MinColumn: return quint64(op.min);
    case MaxColumn: return quint64(op.max);
    case BytesColumn: return quint64(op.bytes);
    }
    return {};
}

QVariant RangeStatsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    static const char* names[] = {"Op", "Count", "Total cyc", "Mean", "Min", "Max", "Bytes"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

} // namespace sage::ui
