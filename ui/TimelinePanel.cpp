#include "ui/TimelinePanel.h"
#include "ui/CoreText.h"

#include "ui/PipePalette.h"
#include "ui/ProfileCompareModel.h"
#include "ui/RangeStatistics.h"
#include "ui/RangeStatsModel.h"
#include "ui/TimelinePlot.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace sage::ui {

namespace {
QTableView* makeTable(QAbstractItemModel* model, QWidget* parent) {
    auto* view = new QTableView(parent);
    view->setModel(model);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->verticalHeader()->hide();
    view->verticalHeader()->setDefaultSectionSize(20);
    view->horizontalHeader()->setStretchLastSection(true);
    return view;
}
} // namespace

TimelinePanel::TimelinePanel(QWidget* parent) : QWidget(parent) {
    rangeModel_ = new RangeStatsModel(this);
    compareModel_ = new ProfileCompareModel(this);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    auto* split = new QSplitter(Qt::Horizontal, this);
    plot_ = new TimelinePlot(split);
    plot_->setObjectName(QStringLiteral("timelinePlot"));
    plot_->setMinimumSize(200, 150);
    tabs_ = new QTabWidget(split);
    tabs_->addTab(buildSummaryTab(), tr("Summary"));
    tabs_->addTab(buildSelectionTab(), tr("Selection"));
    tabs_->addTab(buildBaselineTab(), tr("Baseline"));
    split->addWidget(plot_);
    split->addWidget(tabs_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setSizes({760, 330});
    tabs_->setMinimumWidth(200);
    layout->addLayout(buildToolBar());  // above the plot; built after it, as its buttons drive it
    layout->addWidget(split, 1);
    connect(plot_, &TimelinePlot::zoomDepthChanged, this,
            [this](int depth) { undo_->setText(tr("Undo zoom (%1)").arg(depth)); });
    connect(plot_, &TimelinePlot::rangeSelected, this, &TimelinePanel::updateRange);
    connect(plot_, &TimelinePlot::eventClicked, this, [this](int lane, qulonglong event) {
        const auto& e = plot_->timeline()->event(lane, size_t(event));
        if (e.line > 0) emit lineActivated(int(e.line));
    });
    connect(groupCores_, &QCheckBox::toggled, this, [this]() { showTimeline(); });
}

// Zoom in/out, undo zoom, zoom to selection, fit, group cores and the navigation hint.
QHBoxLayout* TimelinePanel::buildToolBar() {
    auto* bar = new QHBoxLayout;
    auto tool = [this, bar](const QString& text, const QString& tip) {
        auto* b = new QToolButton(this);
        b->setText(text);
        b->setToolTip(tip);
        bar->addWidget(b);
        return b;
    };
    auto* zoomIn = tool(tr("Zoom in"), tr("W or the mouse wheel"));
    auto* zoomOut = tool(tr("Zoom out"), tr("S or the mouse wheel"));
    undo_ = tool(tr("Undo zoom (0)"), tr("Backspace: back to the previous range"));
    auto* toSelection = tool(tr("Zoom to selection"), tr("Select a range with Shift+drag first"));
    auto* fit = tool(tr("Fit"), tr("Show the whole run"));
    groupCores_ = new QCheckBox(tr("Group cores"), this);
    groupCores_->setObjectName(QStringLiteral("groupCores"));
    groupCores_->setToolTip(tr("One lane per pipe for a group of neighbouring cores, so that a many-core run fits the "
                               "view; on by itself when the lanes would not fit"));
    bar->addWidget(groupCores_);
    hint_ = new QLabel(tr("wheel/W/S zoom · drag/A/D pan · Shift+drag select · click → source line"), this);
    hint_->setStyleSheet(QStringLiteral("color: gray"));
    hint_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);  // never widens the dock
    hint_->setToolTip(hint_->text());
    bar->addStretch(1);
    bar->addWidget(hint_);
    connect(zoomIn, &QToolButton::clicked, plot_, [this]() { plot_->zoomBy(0.7); });
    connect(zoomOut, &QToolButton::clicked, plot_, [this]() { plot_->zoomBy(1 / 0.7); });
    connect(undo_, &QToolButton::clicked, plot_, &TimelinePlot::undoZoom);
    connect(toSelection, &QToolButton::clicked, plot_, &TimelinePlot::zoomToSelection);
    connect(fit, &QToolButton::clicked, plot_, [this]() {
        plot_->zoomBy(1);  // remembers the range
        plot_->fit();
    });
    return bar;
}

QWidget* TimelinePanel::buildSummaryTab() {
    summary_ = new QLabel(tr("No profile yet: evaluate (F5)."), tabs_);
    summary_->setTextFormat(Qt::RichText);
    summary_->setWordWrap(true);
    summary_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    summary_->setMargin(4);
    auto* summaryScroll = new QScrollArea(tabs_);  // the dock may be shorter than the summary
    summaryScroll->setWidget(summary_);
    summaryScroll->setWidgetResizable(true);
    summaryScroll->setFrameShape(QFrame::NoFrame);
    return summaryScroll;

}

// The range statistics of a Shift+drag selection.
QWidget* TimelinePanel::buildSelectionTab() {
    auto* selection = new QWidget(tabs_);
    auto* selLayout = new QVBoxLayout(selection);
    selLayout->setContentsMargins(2, 2, 2, 2);
    rangeLabel_ = new QLabel(tr("Shift+drag on the timeline to select a range."), selection);
    rangeLabel_->setWordWrap(true);
    auto* rangeProxy = new QSortFilterProxyModel(this);
    rangeProxy->setSourceModel(rangeModel_);
    rangeProxy->setSortRole(RangeStatsModel::SortRole);
    auto* rangeView = makeTable(rangeProxy, selection);
    rangeView->setObjectName(QStringLiteral("rangeStatsTable"));
    rangeView->setSortingEnabled(true);
    selLayout->addWidget(rangeLabel_);
    selLayout->addWidget(rangeView, 1);
    return selection;

}

// The comparison with a baseline profile: the current one kept, or the task's baseline.cpp.
QWidget* TimelinePanel::buildBaselineTab() {
    auto* baseline = new QWidget(tabs_);
    auto* baseLayout = new QVBoxLayout(baseline);
    baseLayout->setContentsMargins(2, 2, 2, 2);
    auto* baseBar = new QHBoxLayout;
    auto* fromCurrent = new QPushButton(tr("Use current as baseline"), baseline);
    auto* fromTask = new QPushButton(tr("Evaluate task baseline"), baseline);
    fromTask->setToolTip(tr("Evaluate the task's baseline.cpp and compare against it"));
    baseBar->addWidget(fromCurrent);
    baseBar->addWidget(fromTask);
    baseBar->addStretch(1);
    baselineLabel_ = new QLabel(tr("No baseline."), baseline);
    auto* compareView = makeTable(compareModel_, baseline);
    compareView->setObjectName(QStringLiteral("baselineTable"));
    compareView->setColumnWidth(ProfileCompareModel::MetricColumn, 150);
    baseLayout->addLayout(baseBar);
    baseLayout->addWidget(baselineLabel_);
    baseLayout->addWidget(compareView, 1);
    connect(fromCurrent, &QPushButton::clicked, this, &TimelinePanel::baselineFromCurrentRequested);
    connect(fromTask, &QPushButton::clicked, this, &TimelinePanel::baselineFromTaskRequested);
    return baseline;
}

void TimelinePanel::showTab(const QString& name) {
    const int i = name == QLatin1String("selection") ? 1 : name == QLatin1String("baseline") ? 2 : 0;
    tabs_->setCurrentIndex(i);
}

void TimelinePanel::clear(const QString& message) {
    evaluation_.reset();
    timeline_.reset();
    shown_.reset();
    plot_->setTimeline(nullptr, message.isEmpty() ? QString() : tr("No timeline"));
    rangeModel_->clear();
    summary_->setText(message.isEmpty() ? tr("No profile yet: evaluate (F5).") : message);
    compareModel_->setProfiles(baseline_ ? &baseline_->profile : nullptr, nullptr);
}

void TimelinePanel::setEvaluation(std::shared_ptr<const eval::Evaluation> evaluation,
                                  std::shared_ptr<const TimelineData> timeline) {
    evaluation_ = std::move(evaluation);
    timeline_ = std::move(timeline);
    const uint32_t group = coresPerGroup();
    {
        QSignalBlocker block(groupCores_);
        groupCores_->setChecked(group > 1);
        groupCores_->setEnabled(timeline_ && timeline_->coreCount() > 1);
    }
    showTimeline();
    rangeModel_->clear();
    rangeLabel_->setText(tr("Shift+drag on the timeline to select a range."));
    updateSummary();
    compareModel_->setProfiles(baseline_ ? &baseline_->profile : nullptr,
                               evaluation_ ? &evaluation_->profile : nullptr);
}

void TimelinePanel::showTimeline() {
    QString empty;
    if (evaluation_ && evaluation_->profile.present) empty = tr("The stored evaluation has no timeline: it is re-run when the agent pauses or ends (or press F5)");
    else if (evaluation_) empty = tr("No profile: the kernel did not run to completion");
    shown_ = timeline_;
    shownGroup_ = 1;
    if (timeline_ && groupCores_->isChecked()) {
        shownGroup_ = std::max<uint32_t>(2, coresPerGroup());
        shown_ = std::make_shared<const TimelineData>(TimelineData::groupCores(*timeline_, shownGroup_));
    }
    plot_->setTimeline(shown_, empty);
}

uint32_t TimelinePanel::coresPerGroup() const {
    return timeline_ ? TimelineData::coresPerGroupFor(*timeline_, plot_->lanesThatFit()) : 1;
}

void TimelinePanel::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);  // the layout has already given the plot its new height
    if (timeline_ && groupCores_->isChecked() && std::max<uint32_t>(2, coresPerGroup()) != shownGroup_) showTimeline();
}

void TimelinePanel::setBaseline(std::shared_ptr<const eval::Evaluation> baseline, const QString& name) {
    baseline_ = std::move(baseline);
    baselineName_ = name;
    compareModel_->setProfiles(baseline_ ? &baseline_->profile : nullptr, evaluation_ ? &evaluation_->profile : nullptr);
    if (!baseline_) baselineLabel_->setText(tr("No baseline."));
    else if (!baseline_->profile.present)
        baselineLabel_->setText(tr("Baseline <b>%1</b> has no profile (%2).")
                                    .arg(name.toHtmlEscaped(), coreText(toString(baseline_->run.status))));
    else
        baselineLabel_->setText(tr("Baseline: <b>%1</b> — %2 cycles")
                                    .arg(name.toHtmlEscaped())
                                    .arg(baseline_->profile.totalCycles));
    updateSummary();
}

void TimelinePanel::updateSummary() {
    if (!evaluation_ || !evaluation_->profile.present) {
        summary_->setText(evaluation_ ? tr("No profile: %1").arg(QString::fromStdString(evaluation_->run.message).toHtmlEscaped())
                                      : tr("No profile yet: evaluate (F5)."));
        return;
    }
    const auto& p = evaluation_->profile;
    QString html = QStringLiteral("<table cellspacing=0 cellpadding=1>");
    auto row = [&](const QString& k, const QString& v) {
        html += QStringLiteral("<tr><td><b>%1</b>&nbsp;</td><td>%2</td></tr>").arg(k, v);
    };
    QString cycles = QString::number(p.totalCycles);
    if (baseline_ && baseline_->profile.present && baseline_->profile.totalCycles > 0) {
        const double ratio = double(p.totalCycles) / double(baseline_->profile.totalCycles);
        cycles += QStringLiteral(" <span style='color:%1'>(×%2 vs baseline)</span>")
                      .arg(ratio <= 1 ? QStringLiteral("#2e7d32") : QStringLiteral("#c62828"))
                      .arg(ratio, 0, 'f', 3);
    }
    row(tr("Total cycles"), cycles);
    row(tr("Time"), QStringLiteral("%1 µs @ %2 MHz").arg(p.timeUs, 0, 'f', 2).arg(p.clockMhz, 0, 'f', 0));
    row(tr("Cores"), tr("%1 used, blockDim %2, imbalance %3").arg(p.coresUsed).arg(p.blockDim).arg(p.imbalance, 0, 'f', 2));
    row(tr("Roofline"), QStringLiteral("%1% of the bound (%2 cycles)").arg(100 * p.rooflineFraction, 0, 'f', 1).arg(p.rooflineCycles));
    row(tr("memory_bound"), QString::number(p.memoryBound, 'f', 2));
    row(tr("Bottleneck"), QStringLiteral("<span style='color:#c62828'>%1</span>").arg(QString::fromStdString(p.bottleneck).toHtmlEscaped()));
    html += QStringLiteral("</table><p style='margin-top:4px'>%1</p>").arg(QString::fromStdString(p.advice).toHtmlEscaped());
    html += QStringLiteral("<table cellspacing=0 cellpadding=1>");
    for (int pipe = 0; pipe < PipePalette::kPipeCount; ++pipe) {
        auto it = p.pipeRatios.find(PipePalette::ratioKey(pipe).toStdString());
        const double r = it == p.pipeRatios.end() ? 0.0 : it->second;
        const int width = int(std::round(120 * std::clamp(r, 0.0, 1.0)));
        html += QStringLiteral("<tr><td><span style='color:%1'>■</span> %2</td><td align=right>%3%</td>"
                               "<td><table cellspacing=0 cellpadding=0><tr><td width=%4 bgcolor='%1'></td>"
                               "<td width=%5 bgcolor='#eeeeee'>&nbsp;</td></tr></table></td></tr>")
                    .arg(PipePalette::colour(pipe).name(), PipePalette::name(pipe))
                    .arg(100 * r, 0, 'f', 1)
                    .arg(std::max(width, 1))
                    .arg(std::max(120 - width, 1));
    }
    html += QStringLiteral("</table>");
    if (timeline_)
        html += tr("<p style='color:gray'>%1 events on %2 lanes (core × pipe); %3 SetFlag → WaitFlag links drawn "
                   "as purple arrows</p>")
                    .arg(timeline_->eventCount()).arg(timeline_->laneCount()).arg(timeline_->flagLinkCount());
    if (evaluation_->run.status == toolchain::RunStatus::Race)
        html += tr("<p style='color:#c62828'>A race: %1</p>").arg(QString::fromStdString(evaluation_->run.message).toHtmlEscaped());
    summary_->setText(html);
}

void TimelinePanel::updateRange(double t0, double t1) {
    if (!timeline_) return;
    const RangeSummary s = RangeStatistics::compute(*timeline_, uint64_t(std::max(0.0, t0)), uint64_t(std::max(0.0, t1)));
    rangeModel_->setSummary(s);
    QStringList busy;
    for (int pipe = 0; pipe < PipePalette::kPipeCount; ++pipe)
        if (s.pipeBusy[size_t(pipe)])
            busy << QStringLiteral("%1 %2").arg(PipePalette::name(pipe)).arg(s.pipeBusy[size_t(pipe)]);
    rangeLabel_->setText(tr("Cycles %1 – %2 (%3 cycles): %4 events, %5 busy cycles. Busy per pipe (summed over cores): %6")
                             .arg(s.t0).arg(s.t1).arg(s.span()).arg(s.events).arg(s.cycles)
                             .arg(busy.isEmpty() ? tr("none") : busy.join(QStringLiteral(", "))));
    tabs_->setCurrentIndex(1);
}

} // namespace sage::ui
