// The current profile against a baseline: busy cycles per pipe, total cycles, time and roofline
// fraction, each with the baseline value, the current value, the delta and the ratio.
#pragma once

#include "sage_eval/Evaluation.h"

#include <QAbstractTableModel>

#include <memory>
#include <optional>

namespace sage::ui {

class ProfileCompareModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { MetricColumn, BaselineColumn, CurrentColumn, DeltaColumn, RatioColumn, ColumnCount };
    enum Role { DeltaRole = Qt::UserRole + 1 };  // current - baseline, as a double

    explicit ProfileCompareModel(QObject* parent = nullptr);
    void setProfiles(const eval::ProfileSection* baseline, const eval::ProfileSection* current);
    bool hasBaseline() const { return hasBaseline_; }
    // The row of a metric ("total", "mte2", ...), -1 when absent.
    int rowOf(const QString& key) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        QString key, label;
        std::optional<double> baseline, current;
        bool lowerIsBetter = true;
        int decimals = 0;
    };
    std::vector<Row> rows_;
    bool hasBaseline_ = false;
};

} // namespace sage::ui
