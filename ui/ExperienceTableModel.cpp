#include "ui/ExperienceTableModel.h"

#include <QBrush>
#include <QColor>
#include <QFont>

#include <set>

namespace sage::ui {

namespace {
QString str(std::string_view s) { return QString::fromUtf8(s.data(), qsizetype(s.size())); }
}

ExperienceTableModel::ExperienceTableModel(QObject* parent)
    : QAbstractTableModel(parent), entries_(std::make_shared<std::vector<memory::ExperienceSummary>>()) {}

void ExperienceTableModel::setEntries(std::shared_ptr<const std::vector<memory::ExperienceSummary>> entries) {
    beginResetModel();
    entries_ = entries ? std::move(entries) : std::make_shared<std::vector<memory::ExperienceSummary>>();
    endResetModel();
}

const memory::ExperienceSummary* ExperienceTableModel::entry(int row) const {
    return row >= 0 && size_t(row) < entries_->size() ? &(*entries_)[size_t(row)] : nullptr;
}

int ExperienceTableModel::rowOf(qint64 id) const {
    for (size_t i = 0; i < entries_->size(); ++i)
        if ((*entries_)[i].id == id) return int(i);
    return -1;
}

int ExperienceTableModel::pendingCount() const {
    int n = 0;
    for (const auto& e : *entries_) n += e.status == memory::ExperienceStatus::Pending;
    return n;
}

QStringList ExperienceTableModel::categories() const {
    std::set<QString> set;
    for (const auto& e : *entries_)
        if (!e.trigger.category.empty()) set.insert(QString::fromStdString(e.trigger.category));
    return QStringList(set.begin(), set.end());
}

int ExperienceTableModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(entries_->size()); }
int ExperienceTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant ExperienceTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
    const auto& e = (*entries_)[size_t(index.row())];
    const auto totals = e.stats.totals();
    switch (role) {
    case IdRole: return qint64(e.id);
    case StatusRole: return str(memory::toString(e.status));
    case StageRole: return str(memory::toString(e.stage));
    case KindRole: return str(memory::toString(e.kind));
    case CategoryRole: return QString::fromStdString(e.trigger.category);
    case SearchTextRole:
        return QString::fromStdString(e.title + " " + e.trigger.category + " " + e.trigger.diagnostic + " " +
                                      e.trigger.bottleneck).toLower();
    case Qt::ForegroundRole:
        if (index.column() == StatusColumn) {
            switch (e.status) {
            case memory::ExperienceStatus::Pending: return QBrush(QColor(0xef, 0x6c, 0x00));
            case memory::ExperienceStatus::Approved: return QBrush(QColor(0x2e, 0x7d, 0x32));
            case memory::ExperienceStatus::Rejected: return QBrush(QColor(0xc6, 0x28, 0x28));
            case memory::ExperienceStatus::Archived: return QBrush(QColor(0x80, 0x80, 0x80));
            case memory::ExperienceStatus::Trial: return QBrush(QColor(0x15, 0x65, 0xc0));
            }
        }
        return {};
    case Qt::FontRole:
        if (e.status == memory::ExperienceStatus::Pending && index.column() == TitleColumn) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == IdColumn || index.column() == QColumn || index.column() == RetrievedColumn ||
            index.column() == AdoptedColumn)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case ChangedByRole: return QString::fromStdString(e.lastChangedBy);
    case Qt::ToolTipRole:
        // On a shared memory, who changed an entry last matters as much as when (issue 16).
        if ((index.column() == StatusColumn || index.column() == UpdatedColumn) && !e.lastChangedBy.empty())
            return tr("%1 by %2 (revision %3)")
                .arg(str(memory::toString(e.status)), QString::fromStdString(e.lastChangedBy))
                .arg(e.revision);
        if (index.column() == FlagsColumn && e.flagged())
            return tr("flagged for review: retrieved often, rarely adopted");
        return index.column() == TitleColumn ? QString::fromStdString(e.title) : QVariant();
    case SortRole:
        switch (index.column()) {
        case IdColumn: return qint64(e.id);
        case QColumn: return totals.q;
        case RetrievedColumn: return qint64(totals.retrieved);
        case AdoptedColumn: return qint64(totals.adopted);
        default: return data(index, Qt::DisplayRole);
        }
    case Qt::DisplayRole: return displayText(e, index.column());
    }
    return {};
}

QVariant ExperienceTableModel::displayText(const memory::ExperienceSummary& e, int column) const {
    const auto totals = e.stats.totals();
    switch (column) {
    case IdColumn: return qint64(e.id);
    case TitleColumn: return QString::fromStdString(e.title);
    case StatusColumn: return str(memory::toString(e.status));
    case StageColumn: return str(memory::toString(e.stage));
    case KindColumn: return str(memory::toString(e.kind));
    case CategoryColumn: return QString::fromStdString(e.trigger.category);
    case TriggerColumn: {
        QStringList t;
        if (!e.trigger.diagnostic.empty()) t << QString::fromStdString(e.trigger.diagnostic);
        if (!e.trigger.bottleneck.empty()) t << QString::fromStdString(e.trigger.bottleneck);
        return t.join(QStringLiteral(", "));
    }
    case QColumn: return QString::number(totals.q, 'f', 3);
    case RetrievedColumn: return qint64(totals.retrieved);
    case AdoptedColumn: return qint64(totals.adopted);
    case FlagsColumn: {
        QStringList f;
        if (e.pinned) f << tr("pinned");
        if (e.flagged()) f << tr("flagged");
        if (e.mergedInto) f << tr("→ #%1").arg(*e.mergedInto);
        f << str(memory::toString(e.origin));
        return f.join(QStringLiteral(" "));
    }
    case UpdatedColumn: return QString::fromStdString(e.updatedAt).left(19).replace(QLatin1Char('T'), QLatin1Char(' '));
    }
    return {};
}

QVariant ExperienceTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    static const char* names[] = {"ID",   "Title", "Status",    "Stage",   "Kind",  "Category",
                                  "Trigger", "Q",  "Retrieved", "Adopted", "Flags", "Updated"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

} // namespace sage::ui
