#include "ui/RetrievalModel.h"

#include <QBrush>
#include <QColor>
#include <QFont>

namespace sage::ui {

RetrievalModel::RetrievalModel(QObject* parent) : QAbstractTableModel(parent) {}

void RetrievalModel::clear() {
    beginResetModel();
    rows_.clear();
    endResetModel();
}

void RetrievalModel::setIteration(const std::vector<agent::RetrievalRecord>& retrievals,
                                  const std::vector<agent::AdoptionRecord>& adoptions) {
    beginResetModel();
    rows_.clear();
    auto find = [this](qint64 id) -> Row* {
        for (auto& r : rows_)
            if (r.id == id) return &r;
        return nullptr;
    };
    for (const auto& x : retrievals) {
        Row r;
        r.id = x.id;
        r.title = QString::fromStdString(x.title);
        r.rank = x.rank;
        r.score = x.score;
        r.q = x.q;
        r.retrieved = true;
        rows_.push_back(r);
    }
    for (const auto& a : adoptions) {
        Row* r = find(a.id);
        if (!r) {
            rows_.push_back(Row{});
            r = &rows_.back();
            r->id = a.id;
        }
        r->declared = a.declared;
        r->evidenced = a.evidenced;
        r->weight = a.weight.value_or(a.declared ? 1.0 : 0.0);
        r->credit = a.credit;
        r->qBefore = a.qBefore;
        r->qAfter = a.qAfter;
    }
    endResetModel();
}

int RetrievalModel::adoptedCount() const {
    int n = 0;
    for (const auto& r : rows_) n += r.adopted();
    return n;
}

int RetrievalModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(rows_.size()); }
int RetrievalModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant RetrievalModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
    const Row& r = rows_[size_t(index.row())];
    if (role == IdRole) return r.id;
    if (role == AdoptedRole) return r.adopted();
    if (role == Qt::FontRole && r.adopted()) {
        QFont f;
        f.setBold(true);
        return f;
    }
    if (role == Qt::ForegroundRole && index.column() == QAfterColumn && r.qBefore && r.qAfter && *r.qAfter != *r.qBefore)
        return QBrush(*r.qAfter > *r.qBefore ? QColor(0x2e, 0x7d, 0x32) : QColor(0xc6, 0x28, 0x28));
    if (role != Qt::DisplayRole) return {};
    switch (index.column()) {
    case IdColumn: return r.id;
    case TitleColumn: return r.title;
    case RankColumn: return r.retrieved ? QVariant(r.rank) : QVariant();
    case ScoreColumn: return r.retrieved ? QString::number(r.score, 'f', 3) : QString();
    case QColumn: return r.retrieved ? QString::number(r.q, 'f', 3) : QString();
    case AdoptedColumn:
        if (!r.declared && !r.evidenced) return r.adopted() ? tr("yes") : tr("no");
        return QStringLiteral("%1%2").arg(r.declared ? tr("declared") : QString(),
                                          r.evidenced ? (r.declared ? tr(" + evidenced") : tr("evidenced")) : QString());
    case WeightColumn: return QString::number(r.weight, 'f', 2);
    case QAfterColumn:
        return r.qBefore && r.qAfter ? QStringLiteral("%1 → %2").arg(*r.qBefore, 0, 'f', 3).arg(*r.qAfter, 0, 'f', 3)
                                     : QString();
    }
    return {};
}

QVariant RetrievalModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    static const char* names[] = {"ID", "Title", "Rank", "Score", "Q", "Adopted", "Weight", "Q before → after"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

} // namespace sage::ui
