#include "ui/VerificationPanel.h"
#include "ui/CoreText.h"

#include "ui/CompactAxisTicker.h"
#include "ui/MismatchModel.h"
#include "ui/StepBar.h"
#include "ui/VerificationModel.h"

#include <qcustomplot.h>

#include <QFontMetrics>

#include <algorithm>

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QScrollBar>
#include <QSplitter>
#include <QTableView>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

#include <cmath>

namespace sage::ui {

namespace {
constexpr double kErrorFloor = 1e-9;  // zero errors are drawn here on the log axis
double floorError(double e) { return std::isfinite(e) ? std::max(e, kErrorFloor) : 1e6; }

QCustomPlot* makePlot(QWidget* parent) {
    auto* plot = new QCustomPlot(parent);
    plot->setMinimumHeight(120);
    plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot->axisRect()->setRangeZoom(Qt::Horizontal);
    plot->axisRect()->setRangeDrag(Qt::Horizontal);
    QFont f = plot->font();
    f.setPointSize(8);
    plot->xAxis->setTickLabelFont(f);
    plot->yAxis->setTickLabelFont(f);
    plot->xAxis->setLabelFont(f);
    plot->yAxis->setLabelFont(f);
    return plot;
}

// A log axis labels every power of ten by default; in a short plot the labels overlap. Ask for
// a tick per one and a half lines of label text, and replot when that changes.
void fitLogTicks(QCustomPlot* plot) {
    auto ticker = plot->yAxis->ticker().dynamicCast<QCPAxisTickerLog>();
    if (!ticker) return;
    const int line = QFontMetrics(plot->yAxis->tickLabelFont()).height();
    const int count = std::clamp(plot->axisRect()->height() * 2 / (3 * line), 1, 6);
    if (ticker->tickCount() == count) return;
    ticker->setTickCount(count);
    plot->replot(QCustomPlot::rpQueuedReplot);
}
} // namespace

VerificationPanel::VerificationPanel(QWidget* parent) : QWidget(parent) {
    model_ = new VerificationModel(this);
    mismatchModel_ = new MismatchModel(this);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    summary_ = new QLabel(tr("No verification yet: evaluate (F5)."), this);
    summary_->setTextFormat(Qt::RichText);
    summary_->setWordWrap(true);
    layout->addWidget(summary_);

    auto* split = new QSplitter(Qt::Horizontal, this);
    auto* leftSplit = new QSplitter(Qt::Vertical, split);
    leftSplit->addWidget(buildCaseTree(leftSplit));
    leftSplit->addWidget(buildMismatchBox(leftSplit));
    auto* rightSplit = new QSplitter(Qt::Vertical, split);
    errorPlot_ = buildErrorPlot(rightSplit);
    histogram_ = buildHistogram(rightSplit);
    rightSplit->addWidget(errorPlot_);
    rightSplit->addWidget(histogram_);
    split->addWidget(leftSplit);
    split->addWidget(rightSplit);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({520, 420});
    layout->addWidget(split, 1);

    connect(cases_->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& i) { showOutput(i); });
    connect(mismatchView_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& i) { highlightMismatch(i.row()); });
}

QTreeView* VerificationPanel::buildCaseTree(QWidget* parent) {
    cases_ = new QTreeView(parent);
    cases_->setObjectName(QStringLiteral("verificationCases"));
    cases_->setModel(model_);
    cases_->setUniformRowHeights(true);
    // Columns fit their values (a few cases, so measuring them is cheap); the reason takes the
    // rest and is elided, its whole text is the row's tooltip and the mismatch box's title.
    cases_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    cases_->header()->setStretchLastSection(true);
    return cases_;
}

QWidget* VerificationPanel::buildMismatchBox(QWidget* parent) {
    auto* box = new QWidget(parent);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    mismatchTitle_ = new QLabel(tr("<b>First mismatches</b>"), box);
    mismatchTitle_->setTextFormat(Qt::RichText);
    mismatchTitle_->setMinimumWidth(40);  // a long reason is cut, not the table's width forced
    const StepButtons step = addStepBar(layout, mismatchTitle_, {tr("◀"), tr("Previous mismatch"), tr("▶"), tr("Next mismatch")});
    mismatchView_ = new QTableView(box);
    setUpRowTable(mismatchView_, mismatchModel_, QStringLiteral("mismatchTable"), 20);
    // Every column as wide as its values (fitMismatchColumns): the values are what the table is for.
    mismatchView_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    layout->addWidget(mismatchView_, 1);
    connect(step.previous, &QToolButton::clicked, this, [this]() { nextMismatch(false); });
    connect(step.next, &QToolButton::clicked, this, [this]() { nextMismatch(true); });
    return box;
}

QCustomPlot* VerificationPanel::buildErrorPlot(QWidget* parent) {
    auto* plot = makePlot(parent);
    plot->setObjectName(QStringLiteral("errorPlot"));
    plot->yAxis->setScaleType(QCPAxis::stLogarithmic);
    plot->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    plot->xAxis->setLabel(tr("element index"));
    plot->xAxis->setTicker(CompactAxisTicker::create(5));
    plot->yAxis->setLabel(tr("abs error"));
    auto* sample = plot->addGraph();
    sample->setPen(QPen(QColor(0x15, 0x65, 0xc0)));
    sample->setLineStyle(QCPGraph::lsNone);
    sample->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 3));
    sample->setName(tr("sampled error"));
    auto* marks = plot->addGraph();
    marks->setLineStyle(QCPGraph::lsNone);
    marks->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCross, QColor(0xc6, 0x28, 0x28), 7));
    marks->setName(tr("mismatch"));
    auto* selected = plot->addGraph();
    selected->setLineStyle(QCPGraph::lsNone);
    selected->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(Qt::black, 2), Qt::NoBrush, 12));
    auto* tolerance = plot->addGraph();
    tolerance->setPen(QPen(QColor(0xef, 0x6c, 0x00), 1, Qt::DashLine));
    tolerance->setName(tr("atol"));
    plot->legend->setVisible(true);
    plot->legend->setFont(plot->xAxis->tickLabelFont());
    plot->legend->removeItem(2);
    plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    connect(plot, &QCustomPlot::afterLayout, this, [plot]() { fitLogTicks(plot); });
    return plot;
}

QCustomPlot* VerificationPanel::buildHistogram(QWidget* parent) {
    auto* plot = makePlot(parent);
    plot->setObjectName(QStringLiteral("errorHistogram"));
    plot->setInteractions({});
    auto* bars = new QCPBars(plot->xAxis, plot->yAxis);
    bars->setBrush(QColor(0x15, 0x65, 0xc0, 160));
    bars->setPen(QPen(QColor(0x15, 0x65, 0xc0)));
    bars->setBaseValue(0.7);
    bars->setWidth(0.7);
    plot->yAxis->setScaleType(QCPAxis::stLogarithmic);
    plot->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    plot->yAxis->setLabel(tr("elements"));
    plot->xAxis->setLabel(tr("abs error (bin upper edge)"));
    plot->xAxis->setTickLabelRotation(90);
    connect(plot, &QCustomPlot::afterLayout, this, [this, plot]() {
        const int before = histogramStride_;
        labelHistogram();
        if (histogramStride_ != before) plot->replot(QCustomPlot::rpQueuedReplot);
        fitLogTicks(plot);
    });
    return plot;
}

void VerificationPanel::clear(const QString& message) {
    evaluation_.reset();
    model_->clear();
    mismatchModel_->setOutput(nullptr);
    showMismatchTitle(nullptr);
    summary_->setText(message.isEmpty() ? tr("No verification yet: evaluate (F5).") : message);
    for (int g = 0; g < errorPlot_->graphCount(); ++g) errorPlot_->graph(g)->data()->clear();
    errorPlot_->replot(QCustomPlot::rpQueuedReplot);
    if (auto* bars = qobject_cast<QCPBars*>(histogram_->plottable(0))) bars->data()->clear();
    histogram_->replot(QCustomPlot::rpQueuedReplot);
}

void VerificationPanel::setEvaluation(std::shared_ptr<const eval::Evaluation> evaluation,
                                      std::shared_ptr<const eval::Task> task) {
    evaluation_ = std::move(evaluation);
    task_ = std::move(task);
    if (!evaluation_) return clear();
    const auto& v = evaluation_->verify;
    model_->setVerification(v);
    cases_->expandAll();
    int failedCases = 0;
    for (const auto& c : v.cases) failedCases += !c.pass;
    if (!v.ran) {
        // The run's message may quote the kernel (an ASSERT text): escaped like any outside text.
        const QString why = evaluation_->compile.ok ? coreText(toString(evaluation_->run.status)) + QStringLiteral(": ") +
                                                          QString::fromStdString(evaluation_->run.message)
                                                    : tr("the kernel does not compile");
        summary_->setText(tr("<b>Not verified</b>: %1").arg(why.toHtmlEscaped()));
    } else if (v.pass) {
        summary_->setText(tr("<b style='color:#2e7d32'>PASS</b> — %n case run(s), every output within tolerance",
                             nullptr, int(v.cases.size())));
    } else {
        summary_->setText(tr("<b style='color:#c62828'>FAIL</b> — %1 of %2 case runs fail")
                              .arg(failedCases).arg(v.cases.size()));
    }
    QModelIndex first = model_->firstFailure();
    if (!first.isValid() && model_->rowCount() > 0) first = model_->index(0, 0);
    if (first.isValid()) {
        cases_->setCurrentIndex(first);
        showOutput(first);
    } else {
        mismatchModel_->setOutput(nullptr);
        showMismatchTitle(nullptr);
    }
}

void VerificationPanel::showOutput(const QModelIndex& index) {
    const eval::OutputCheck* o = model_->outputAt(index);
    const eval::CaseCheck* c = model_->caseAt(index);
    std::vector<int64_t> shape;
    if (o && c && task_)
        if (const auto* tc = task_->findCase(c->caseName))
            for (const auto& out : task_->outputs)
                if (out.name == o->name) shape = task_->shapeOf(out, *tc);
    mismatchModel_->setOutput(o, shape);
    showMismatchTitle(o);
    fitMismatchColumns();
    // Error against index.
    QVector<double> xs, ys, mx, my;
    if (o) {
        const double step = std::max<double>(1, double(o->checked / 2048));
        for (size_t k = 0; k < o->errorSample.size(); ++k) {
            xs << double(k) * step;
            ys << floorError(o->errorSample[k]);
        }
        for (int r = 0; r < mismatchModel_->rowCount(); ++r) {
            mx << double(mismatchModel_->flatIndex(r));
            my << floorError(mismatchModel_->mismatch(r).absError);
        }
    }
    errorPlot_->graph(0)->setData(xs, ys, true);
    errorPlot_->graph(1)->setData(mx, my);
    errorPlot_->graph(2)->data()->clear();
    const double xmax = o ? std::max<double>(1, double(o->checked)) : 1;
    if (o && o->atol > 0) errorPlot_->graph(3)->setData({0, xmax}, {o->atol, o->atol}, true);
    else errorPlot_->graph(3)->data()->clear();
    errorPlot_->xAxis->setRange(-xmax * 0.02, xmax * 1.03);
    double ymax = kErrorFloor * 10;
    for (double y : ys) ymax = std::max(ymax, y);
    for (double y : my) ymax = std::max(ymax, y);
    if (o) ymax = std::max(ymax, o->atol);
    errorPlot_->yAxis->setRange(kErrorFloor / 2, ymax * 4);
    errorPlot_->replot(QCustomPlot::rpQueuedReplot);
    // Histogram.
    auto* bars = qobject_cast<QCPBars*>(histogram_->plottable(0));
    QVector<double> keys, counts;
    QVector<QString> labels;
    const auto& edges = eval::kHistogramEdges;
    double maxCount = 1;
    if (o) {
        for (size_t b = 0; b < o->histogram.size(); ++b) {
            keys << double(b + 1);
            counts << double(o->histogram[b]);
            maxCount = std::max(maxCount, double(o->histogram[b]));
            if (b < edges.size()) labels << (edges[b] == 0 ? QStringLiteral("0") : QStringLiteral("≤%1").arg(edges[b], 0, 'g', 1));
            else if (b == edges.size()) labels << QStringLiteral(">%1").arg(edges.back());
            else labels << QStringLiteral("NaN/Inf");
        }
    }
    bars->setData(keys, counts, true);
    histogramLabels_ = labels;
    histogram_->xAxis->setRange(0.3, std::max<double>(1, double(keys.size())) + 0.7);
    labelHistogram();
    histogram_->yAxis->setRange(0.7, maxCount * 3);
    histogram_->replot(QCustomPlot::rpQueuedReplot);
    if (mismatchModel_->rowCount() > 0) selectMismatch(0);
}

void VerificationPanel::showMismatchTitle(const eval::OutputCheck* output) {
    if (!output) {
        mismatchTitle_->setText(tr("<b>First mismatches</b>"));
        mismatchTitle_->setToolTip({});
        return;
    }
    const QString name = QString::fromStdString(output->name).toHtmlEscaped();
    const QString reason = QString::fromStdString(output->reason);
    mismatchTitle_->setText(reason.isEmpty() ? tr("<b>First mismatches</b> of %1").arg(name)
                                             : tr("<b>First mismatches</b> of %1: %2").arg(name, reason.toHtmlEscaped()));
    mismatchTitle_->setToolTip(reason);
}

void VerificationPanel::fitMismatchColumns() {
    // The table asks for the width of all its columns, so the splitter narrows the plots rather
    // than hide the values (up to a cap, beyond which it scrolls to the selected values).
    mismatchView_->resizeColumnsToContents();
    int width = mismatchView_->verticalHeader()->width() + 2 * mismatchView_->frameWidth() +
                mismatchView_->verticalScrollBar()->sizeHint().width();
    for (int c = 0; c < MismatchModel::ColumnCount; ++c) width += mismatchView_->columnWidth(c);
    mismatchView_->setMinimumWidth(std::min(width, 560));
}

void VerificationPanel::selectMismatch(int row) {
    mismatchView_->selectRow(row);
    // The row and its values in view: the index first, then the expected/actual pair, which wins
    // when the table is too narrow for both.
    mismatchView_->scrollTo(mismatchModel_->index(row, MismatchModel::IndexColumn));
    mismatchView_->scrollTo(mismatchModel_->index(row, MismatchModel::ActualColumn));
    mismatchView_->scrollTo(mismatchModel_->index(row, MismatchModel::ExpectedColumn));
}

void VerificationPanel::highlightMismatch(int row) {
    auto* g = errorPlot_->graph(2);
    g->data()->clear();
    if (row >= 0 && row < mismatchModel_->rowCount()) {
        const double x = double(mismatchModel_->flatIndex(row));
        const double y = floorError(mismatchModel_->mismatch(row).absError);
        g->addData(x, y);
        // Keep the point in view.
        const auto range = errorPlot_->xAxis->range();
        if (x < range.lower || x > range.upper) errorPlot_->xAxis->setRange(x - range.size() / 2, x + range.size() / 2);
        moveLegendAwayFrom(x, y);
    }
    errorPlot_->replot(QCustomPlot::rpQueuedReplot);
}

void VerificationPanel::moveLegendAwayFrom(double x, double y) {
    // The legend takes the corner diagonally opposite the selected mismatch, so it never covers it.
    const QRect area = errorPlot_->axisRect()->rect();
    const double px = errorPlot_->xAxis->coordToPixel(x), py = errorPlot_->yAxis->coordToPixel(y);
    const Qt::Alignment horizontal = px < area.center().x() ? Qt::AlignRight : Qt::AlignLeft;
    const Qt::Alignment vertical = py < area.center().y() ? Qt::AlignBottom : Qt::AlignTop;
    errorPlot_->axisRect()->insetLayout()->setInsetAlignment(0, horizontal | vertical);
}

Qt::Alignment VerificationPanel::legendCorner() const {
    return errorPlot_->axisRect()->insetLayout()->insetAlignment(0);
}

void VerificationPanel::labelHistogram() {
    // Rotated labels need about a line of height each: show every n-th when the bars are narrower.
    const int bars = int(histogramLabels_.size());
    if (bars == 0) return;
    const double perBar = std::abs(histogram_->xAxis->coordToPixel(2) - histogram_->xAxis->coordToPixel(1));
    const int needed = QFontMetrics(histogram_->xAxis->tickLabelFont()).height() + 2;
    const int stride = std::max(1, int(std::ceil(needed / std::max(1.0, perBar))));
    auto ticker = QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText);
    for (int b = 0; b < bars; b += stride) ticker->addTick(b + 1, histogramLabels_[b]);
    histogram_->xAxis->setTicker(ticker);
    histogramStride_ = stride;
}

void VerificationPanel::nextMismatch(bool forward) {
    const int n = mismatchModel_->rowCount();
    if (n == 0) return;
    const int current = mismatchView_->currentIndex().isValid() ? mismatchView_->currentIndex().row() : -1;
    const int row = current < 0 ? 0 : ((current + (forward ? 1 : -1)) % n + n) % n;
    selectMismatch(row);
}

} // namespace sage::ui
