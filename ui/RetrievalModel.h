// The experiences one iteration retrieved from memory, with what happened to each: rank, score,
// learned Q, whether the policy declared it adopted and the diff shows evidence of it, its
// adoption weight and credit, and Q before and after the outcome.
#pragma once

#include "sage_agent/RunStore.h"

#include <QAbstractTableModel>

#include <optional>
#include <vector>

namespace sage::ui {

class RetrievalModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        IdColumn, TitleColumn, RankColumn, ScoreColumn, QColumn, AdoptedColumn, WeightColumn, QAfterColumn, ColumnCount
    };
    enum Role { IdRole = Qt::UserRole + 1, AdoptedRole };

    explicit RetrievalModel(QObject* parent = nullptr);
    // One iteration's retrievals and adoptions, as the run store keeps them.
    void setIteration(const std::vector<agent::RetrievalRecord>& retrievals,
                      const std::vector<agent::AdoptionRecord>& adoptions);
    void clear();
    int adoptedCount() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        qint64 id = 0;
        QString title;
        int rank = 0;
        double score = 0, q = 0;
        bool retrieved = false, declared = false, evidenced = false;
        double weight = 0, credit = 0;
        std::optional<double> qBefore, qAfter;
        bool adopted() const { return weight > 0 || (declared && !retrieved); }
    };
    std::vector<Row> rows_;
};

} // namespace sage::ui
