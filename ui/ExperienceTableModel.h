// The experiences of the memory as a table: id, title, status, stage, kind, trigger, learned Q,
// retrieval/adoption counters, flags. Filtering is ExperienceFilterProxy's job.
#pragma once

#include "sage_memory/ExperienceRepository.h"

#include <QAbstractTableModel>

#include <memory>
#include <vector>

namespace sage::ui {

class ExperienceTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        IdColumn, TitleColumn, StatusColumn, StageColumn, KindColumn, CategoryColumn, TriggerColumn, QColumn,
        RetrievedColumn, AdoptedColumn, FlagsColumn, UpdatedColumn, ColumnCount
    };
    enum Role {
        IdRole = Qt::UserRole + 1,
        StatusRole,    // "pending", "approved", ...
        StageRole,     // "draft", "repair", "optimize", "any"
        KindRole,
        CategoryRole,  // trigger category
        SearchTextRole,  // title and trigger, lower case, for the text filter
        SortRole,
        ChangedByRole,  // who made the entry's last curation change ("" if nobody yet)
    };

    explicit ExperienceTableModel(QObject* parent = nullptr);
    void setEntries(std::shared_ptr<const std::vector<memory::ExperienceSummary>> entries);
    const memory::ExperienceSummary* entry(int row) const;
    int rowOf(qint64 id) const;
    int pendingCount() const;
    QStringList categories() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant displayText(const memory::ExperienceSummary& e, int column) const;
    std::shared_ptr<const std::vector<memory::ExperienceSummary>> entries_;
};

} // namespace sage::ui
