#include "ui/ExperienceFilterProxy.h"

#include "ui/ExperienceTableModel.h"

namespace sage::ui {

ExperienceFilterProxy::ExperienceFilterProxy(QObject* parent) : QSortFilterProxyModel(parent) {
    setSortRole(ExperienceTableModel::SortRole);
}

void ExperienceFilterProxy::setStatus(const QString& status) {
    setStatuses(status.isEmpty() ? QStringList() : QStringList{status});
}
void ExperienceFilterProxy::setStatuses(const QStringList& statuses) {
    statuses_ = statuses;
    invalidateFilter();
}
void ExperienceFilterProxy::setStage(const QString& stage) {
    stage_ = stage;
    invalidateFilter();
}
void ExperienceFilterProxy::setKind(const QString& kind) {
    kind_ = kind;
    invalidateFilter();
}
void ExperienceFilterProxy::setCategory(const QString& category) {
    category_ = category;
    invalidateFilter();
}
void ExperienceFilterProxy::setText(const QString& text) {
    words_ = text.toLower().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    textMatches_.clear();
    invalidateFilter();
}
void ExperienceFilterProxy::setTextMatches(const QSet<qint64>& ids) {
    textMatches_ = ids;
    invalidateFilter();
}

bool ExperienceFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    const QModelIndex i = sourceModel()->index(sourceRow, 0, sourceParent);
    auto is = [&](int role, const QString& want) { return want.isEmpty() || i.data(role).toString() == want; };
    if (!statuses_.isEmpty() && !statuses_.contains(i.data(ExperienceTableModel::StatusRole).toString())) return false;
    if (!is(ExperienceTableModel::StageRole, stage_) ||
        !is(ExperienceTableModel::KindRole, kind_) || !is(ExperienceTableModel::CategoryRole, category_))
        return false;
    if (words_.isEmpty() || textMatches_.contains(i.data(ExperienceTableModel::IdRole).toLongLong())) return true;
    const QString text = i.data(ExperienceTableModel::SearchTextRole).toString();
    for (const auto& w : words_)
        if (!text.contains(w)) return false;
    return true;
}

} // namespace sage::ui
