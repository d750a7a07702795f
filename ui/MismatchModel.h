// The first mismatches of one output: index, expected, actual, absolute and relative error.
#pragma once

#include "sage_eval/Evaluation.h"

#include <QAbstractTableModel>

namespace sage::ui {

class MismatchModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { IndexColumn, ExpectedColumn, ActualColumn, AbsColumn, RelColumn, ColumnCount };
    enum Role { FlatIndexRole = Qt::UserRole + 1 };  // row-major element index (needs the shape)

    explicit MismatchModel(QObject* parent = nullptr);
    // `shape`: the output's shape in the case, for the flat index (may be empty).
    void setOutput(const eval::OutputCheck* output, std::vector<int64_t> shape = {});
    const eval::Mismatch& mismatch(int row) const { return rows_[size_t(row)]; }
    qint64 flatIndex(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<eval::Mismatch> rows_;
    std::vector<int64_t> shape_;
};

} // namespace sage::ui
