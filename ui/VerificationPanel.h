// The verification diff dock: pass/fail per case and output, max abs/rel error, the mismatch
// table of the selected output (with next/previous mismatch), a plot of the absolute error
// against the element index (sampled evenly, mismatches marked) and the error histogram.
#pragma once

#include "sage_eval/Evaluation.h"
#include "sage_eval/Task.h"

#include <QVector>
#include <QWidget>

#include <memory>

class QCustomPlot;
class QLabel;
class QTableView;
class QTreeView;

namespace sage::ui {

class MismatchModel;
class VerificationModel;

class VerificationPanel : public QWidget {
    Q_OBJECT
public:
    explicit VerificationPanel(QWidget* parent = nullptr);
    // `task` gives the output shapes (flat indexes for the plot); may be null.
    void setEvaluation(std::shared_ptr<const eval::Evaluation> evaluation, std::shared_ptr<const eval::Task> task);
    void clear(const QString& message = {});
    VerificationModel* model() const { return model_; }
    MismatchModel* mismatches() const { return mismatchModel_; }
    QTreeView* caseView() const { return cases_; }
    QTableView* mismatchView() const { return mismatchView_; }
    QCustomPlot* errorPlot() const { return errorPlot_; }
    QCustomPlot* histogramPlot() const { return histogram_; }
    void nextMismatch(bool forward = true);
    Qt::Alignment legendCorner() const;  // the error plot's legend: away from the selected mismatch
    int histogramLabelStride() const { return histogramStride_; }  // every n-th bin is labelled

private:
    void showOutput(const QModelIndex& index);
    void highlightMismatch(int row);
    void moveLegendAwayFrom(double x, double y);
    void labelHistogram();
    void showMismatchTitle(const eval::OutputCheck* output);  // which output, and why it fails
    void fitMismatchColumns();                                // the table asks for its values' width
    void selectMismatch(int row);                             // selected, its values scrolled into view
    QTreeView* buildCaseTree(QWidget* parent);
    QWidget* buildMismatchBox(QWidget* parent);
    QCustomPlot* buildErrorPlot(QWidget* parent);
    QCustomPlot* buildHistogram(QWidget* parent);
    std::shared_ptr<const eval::Evaluation> evaluation_;
    std::shared_ptr<const eval::Task> task_;
    VerificationModel* model_;
    MismatchModel* mismatchModel_;
    QLabel* summary_;
    QLabel* mismatchTitle_ = nullptr;
    QTreeView* cases_;
    QTableView* mismatchView_;
    QCustomPlot *errorPlot_, *histogram_;
    QVector<QString> histogramLabels_;
    int histogramStride_ = 1;
};

} // namespace sage::ui
