#include "ui/IterationListModel.h"
#include "ui/CoreText.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QStringList>

namespace sage::ui {

QString stageText(memory::Stage stage) {
    return coreText(memory::toString(stage));
}

IterationListModel::IterationListModel(QObject* parent) : QAbstractTableModel(parent) {}

void IterationListModel::clear() {
    beginResetModel();
    rows_.clear();
    best_ = -1;
    endResetModel();
}

void IterationListModel::updateBest() {
    const int before = best_;
    const agent::IterationRecord* best = nullptr;
    for (const auto& row : rows_) {
        const auto* r = row.record.get();
        if (r && r->correct && r->cycles > 0 && (!best || r->cycles < best->cycles)) best = r;
    }
    best_ = best ? best->index : -1;
    if (best_ == before) return;
    for (int iteration : {before, best_})
        if (int row = rowOf(iteration); row >= 0) emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

int IterationListModel::rowOf(int iteration) const {
    for (size_t i = 0; i < rows_.size(); ++i)
        if (rows_[i].index == iteration) return int(i);
    return -1;
}

int IterationListModel::finishedCount() const {
    int n = 0;
    for (const auto& r : rows_) n += r.record != nullptr;
    return n;
}

void IterationListModel::iterationStarted(int index, const QString& stage) {
    if (int row = rowOf(index); row >= 0) {
        rows_[size_t(row)].stage = stage;
        emit dataChanged(this->index(row, 0), this->index(row, ColumnCount - 1));
        return;
    }
    beginInsertRows({}, int(rows_.size()), int(rows_.size()));
    rows_.push_back({index, stage, nullptr});
    endInsertRows();
}

void IterationListModel::iterationFinished(IterationRecordPtr record) {
    if (!record) return;
    const int index = record->index;
    const QString stage = stageText(record->stage);
    if (int row = rowOf(index); row >= 0) {
        rows_[size_t(row)] = {index, stage, std::move(record)};
        emit dataChanged(this->index(row, 0), this->index(row, ColumnCount - 1));
    } else {
        beginInsertRows({}, int(rows_.size()), int(rows_.size()));
        rows_.push_back({index, stage, std::move(record)});
        endInsertRows();
    }
    updateBest();
}

void IterationListModel::setRecords(const std::vector<IterationRecordPtr>& records) {
    beginResetModel();
    rows_.clear();
    for (const auto& r : records)
        if (r) rows_.push_back({r->index, stageText(r->stage), r});
    best_ = -1;
    endResetModel();
    updateBest();
}

IterationRecordPtr IterationListModel::record(int row) const {
    return row >= 0 && size_t(row) < rows_.size() ? rows_[size_t(row)].record : nullptr;
}

int IterationListModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(rows_.size()); }
int IterationListModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant IterationListModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
    const Row& row = rows_[size_t(index.row())];
    const agent::IterationRecord* r = row.record.get();
    const bool correct = r && r->correct;
    if (role == IterationRole) return row.index;
    if (role == CorrectRole) return correct;
    if (role == FinishedRole) return r != nullptr;
    const bool best = r && row.index == best_;
    if (role == BestRole) return best;
    if (role == Qt::BackgroundRole && best) return QBrush(QColor(0xe8, 0xf5, 0xe9));
    if (role == Qt::FontRole && best) {
        QFont f;
        f.setBold(true);
        return f;
    }
    if (role == Qt::ForegroundRole && index.column() == StatusColumn) {
        if (!r) return QBrush(QColor(0x15, 0x65, 0xc0));
        return QBrush(correct ? QColor(0x2e, 0x7d, 0x32) : QColor(0xc6, 0x28, 0x28));
    }
    if (role == Qt::TextAlignmentRole &&
        (index.column() == RewardColumn || index.column() == CyclesColumn || index.column() == RooflineColumn))
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && r) {
        QString tip = best ? tr("The best correct iteration: the fewest cycles so far.\n") : QString();
        tip += QString::fromStdString(r->rationale);
        if (!r->error.empty()) tip += QStringLiteral("\n") + QString::fromStdString(r->error);
        return tip.isEmpty() ? QVariant() : tip;
    }
    if (role != Qt::DisplayRole) return {};
    switch (index.column()) {
    case IndexColumn: return best ? QStringLiteral("★%1").arg(row.index) : QString::number(row.index);
    case StageColumn: return row.stage;
    case OriginColumn: return r ? QString::fromStdString(r->origin) : QString();
    case StatusColumn:
        if (!r) return tr("running…");
        return correct ? tr("correct") : coreText(toString(r->status));
    case RewardColumn: return r ? QString::number(r->reward, 'f', 3) : QString();
    case CyclesColumn: {
        const auto c = r ? r->cycles : 0;
        return c ? QVariant(quint64(c)) : QVariant();
    }
    case RooflineColumn: {
        const double f = r ? r->rooflineFraction : 0;
        return f > 0 ? QString::number(f, 'f', 3) : QString();
    }
    case AdoptedColumn: {
        if (!r) return {};
        QStringList ids;
        for (const auto& a : r->adoptions)
            if (a.adopted()) ids << QStringLiteral("#%1").arg(a.id);
        return ids.join(QLatin1Char(' '));
    }
    case MoveColumn: return r ? QString::fromStdString(r->move) : QString();
    }
    return {};
}

QVariant IterationListModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    static const char* names[] = {"#", "Stage", "Origin", "Status", "Reward", "Cycles", "Roofline", "Adopted", "Move"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

} // namespace sage::ui
