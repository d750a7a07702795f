// The selected time range's aggregate statistics per op: count, total, mean, min, max cycles
// and bytes moved.
#pragma once

#include "ui/RangeStatistics.h"

#include <QAbstractTableModel>

namespace sage::ui {

class RangeStatsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { OpColumn, CountColumn, TotalColumn, MeanColumn, MinColumn, MaxColumn, BytesColumn, ColumnCount };
    enum Role { SortRole = Qt::UserRole + 1 };

    explicit RangeStatsModel(QObject* parent = nullptr);
    void setSummary(const RangeSummary& summary);
    void clear();
    const RangeSummary& summary() const { return summary_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    RangeSummary summary_;
};

} // namespace sage::ui
