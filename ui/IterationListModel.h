// The agent's iterations as they happen: index, stage, origin, status, reward, cycles, roofline
// fraction, adopted experiences and the move. A row appears when an iteration starts ("running")
// and is completed from the stored iteration record when it finishes. The best iteration (the
// correct one with the fewest cycles; the earliest on a tie, as the loop's frontier counts it)
// is marked with a star and a green row.
#pragma once

#include "sage_agent/RunStore.h"

#include <QAbstractTableModel>

#include <memory>
#include <vector>

namespace sage::ui {

using IterationRecordPtr = std::shared_ptr<const agent::IterationRecord>;  // as the loop stored it

// A stage as the lists show it: its stored name (draft, repair, optimize).
QString stageText(memory::Stage stage);

class IterationListModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        IndexColumn, StageColumn, OriginColumn, StatusColumn, RewardColumn, CyclesColumn, RooflineColumn,
        AdoptedColumn, MoveColumn, ColumnCount
    };
    enum Role { IterationRole = Qt::UserRole + 1, CorrectRole, FinishedRole, BestRole };

    explicit IterationListModel(QObject* parent = nullptr);
    void clear();
    void iterationStarted(int index, const QString& stage);
    void iterationFinished(IterationRecordPtr record);
    void setRecords(const std::vector<IterationRecordPtr>& records);  // a stored run
    IterationRecordPtr record(int row) const;
    int rowOf(int iteration) const;
    int finishedCount() const;
    int bestIteration() const { return best_; }  // -1: no correct iteration yet
    int bestRow() const { return best_ < 0 ? -1 : rowOf(best_); }

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
    void updateBest();
    std::vector<Row> rows_;
    int best_ = -1;
};

} // namespace sage::ui

Q_DECLARE_METATYPE(sage::ui::IterationRecordPtr)
