// The timeline dock: the per-core × per-pipe timeline, a summary of the profile (pipe ratios,
// memory_bound, bottleneck with advice, roofline fraction), statistics of a selected time range,
// and the comparison with a baseline evaluation (delta per pipe and in total).
#pragma once

#include "sage_eval/Evaluation.h"
#include "ui/TimelineData.h"

#include <QWidget>

#include <memory>

class QHBoxLayout;
class QCheckBox;
class QLabel;
class QTabWidget;
class QTableView;
class QToolButton;

namespace sage::ui {

class ProfileCompareModel;
class RangeStatsModel;
class TimelinePlot;

class TimelinePanel : public QWidget {
    Q_OBJECT
public:
    explicit TimelinePanel(QWidget* parent = nullptr);
    void setEvaluation(std::shared_ptr<const eval::Evaluation> evaluation, std::shared_ptr<const TimelineData> timeline);
    void setBaseline(std::shared_ptr<const eval::Evaluation> baseline, const QString& name);
    void clear(const QString& message = {});
    TimelinePlot* plot() const { return plot_; }
    QCheckBox* groupCoresBox() const { return groupCores_; }
    RangeStatsModel* rangeModel() const { return rangeModel_; }
    ProfileCompareModel* compareModel() const { return compareModel_; }
    std::shared_ptr<const eval::Evaluation> evaluation() const { return evaluation_; }
    std::shared_ptr<const eval::Evaluation> baseline() const { return baseline_; }
    void showTab(const QString& name);  // "summary", "selection", "baseline"

signals:
    void lineActivated(int line);
    void baselineFromCurrentRequested();
    void baselineFromTaskRequested();

protected:
    void resizeEvent(QResizeEvent* event) override;  // a grouped timeline regroups to the new height

private:
    uint32_t coresPerGroup() const;  // for Group cores: the smallest group whose lanes fit the plot
    QHBoxLayout* buildToolBar();
    QWidget* buildSummaryTab();
    QWidget* buildSelectionTab();
    QWidget* buildBaselineTab();
    void updateSummary();
    void showTimeline();  // the plot shows the timeline, or its cores grouped (Group cores)
    void updateRange(double t0, double t1);
    std::shared_ptr<const eval::Evaluation> evaluation_, baseline_;
    std::shared_ptr<const TimelineData> timeline_;  // one lane per core and pipe: range statistics use it
    std::shared_ptr<const TimelineData> shown_;     // what the plot draws
    uint32_t shownGroup_ = 1;                       // cores per lane in shown_
    QString baselineName_;
    TimelinePlot* plot_;
    QLabel *summary_, *rangeLabel_, *baselineLabel_, *hint_;
    QToolButton* undo_;
    QCheckBox* groupCores_;
    QTabWidget* tabs_;
    RangeStatsModel* rangeModel_;
    ProfileCompareModel* compareModel_;
};

} // namespace sage::ui
