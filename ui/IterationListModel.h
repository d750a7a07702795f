// The agent's iterations as they happen: index, stage, origin, status, reward, cycles, roofline
// fraction, adopted experiences and the move. A row appears when an iteration starts ("running")
// and is completed from the stored iteration record when it finishes.
#pragma once

#include "sage_agent/RunStore.h"

#include <QAbstractTableModel>

#include <memory>
#include <vector>

namespace sage::ui {

using IterationRecordPtr = std::shared_ptr<const agent::IterationRecord>;  // as the loop stored it

class IterationListModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        IndexColumn, StageColumn, OriginColumn, StatusColumn, RewardColumn, CyclesColumn, RooflineColumn,
        AdoptedColumn, MoveColumn, ColumnCount
    };
    enum Role { IterationRole = Qt::UserRole + 1, CorrectRole, FinishedRole };

    explicit IterationListModel(QObject* parent = nullptr);
    void clear();
    void iterationStarted(int index, const QString& stage);
    void iterationFinished(IterationRecordPtr record);
    void setRecords(const std::vector<IterationRecordPtr>& records);  // a stored run
    IterationRecordPtr record(int row) const;
    int rowOf(int iteration) const;
    int finishedCount() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        int index = 0;
        QString stage;
        IterationRecordPtr record;  // null while running
    };
    std::vector<Row> rows_;
};

} // namespace sage::ui

Q_DECLARE_METATYPE(sage::ui::IterationRecordPtr)
