// Verification as a tree: one row per (case, seed) with pass/fail, and under it one row per
// output with max abs/rel error, mismatch count and why it failed. An output judged by CANN
// Bench's criterion also shows its MERE, MARE and threshold T (pass: MERE < T and MARE < 10 T).
#pragma once

#include "sage_eval/Evaluation.h"

#include <QAbstractItemModel>

namespace sage::ui {

class VerificationModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { NameColumn, ResultColumn, MaxAbsColumn, MaxRelColumn, MismatchColumn, CriterionColumn, ReasonColumn, ColumnCount };
    enum Role { PassRole = Qt::UserRole + 1, CaseRole, OutputRole };  // CaseRole/OutputRole: indexes, -1 for none

    explicit VerificationModel(QObject* parent = nullptr);
    void setVerification(const eval::VerifySection& verify);
    void clear();
    const eval::VerifySection& verification() const { return verify_; }
    // The output at an index (the first output of a case row); nullptr for none.
    const eval::OutputCheck* outputAt(const QModelIndex& index) const;
    const eval::CaseCheck* caseAt(const QModelIndex& index) const;
    // The first failing output, or an invalid index.
    QModelIndex firstFailure() const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    eval::VerifySection verify_;
};

} // namespace sage::ui
