#include "ui/TimelinePlot.h"

#include "ui/CompactAxisTicker.h"
#include "ui/PipePalette.h"
#include "ui/TimelineBarsPlottable.h"
#include "ui/TimelineLinksPlottable.h"

#include <QFontMetrics>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace sage::ui {

TimelinePlot::TimelinePlot(QWidget* parent) : QCustomPlot(parent) {
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setNoAntialiasingOnDrag(true);
    setPlottingHints(QCP::phFastPolylines | QCP::phCacheLabels);
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    axisRect()->setRangeZoom(Qt::Horizontal);
    axisRect()->setRangeDrag(Qt::Horizontal | Qt::Vertical);
    axisRect()->setRangeZoomFactor(0.8, 1.0);
    yAxis->setRangeReversed(true);
    yAxis->grid()->setVisible(false);
    yAxis->setTickLength(0, 0);
    yAxis->setSubTickLength(0, 0);
    xAxis->setLabel(tr("cycles"));
    xAxis->setTicker(CompactAxisTicker::create(8));
    QFont f = font();
    f.setPointSize(8);
    xAxis->setTickLabelFont(f);
    yAxis->setTickLabelFont(f);
    xAxis->setLabelFont(f);
    bars_ = new TimelineBarsPlottable(xAxis, yAxis);
    links_ = new TimelineLinksPlottable(xAxis, yAxis);
    selectionItem_ = new QCPItemRect(this);
    selectionItem_->setPen(QPen(QColor(0x30, 0x30, 0x90), 1, Qt::DashLine));
    selectionItem_->setBrush(QColor(0x30, 0x60, 0xc0, 40));
    selectionItem_->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
    selectionItem_->bottomRight->setTypeY(QCPItemPosition::ptAxisRectRatio);
    selectionItem_->setVisible(false);
    highlightItem_ = new QCPItemRect(this);
    highlightItem_->setPen(QPen(Qt::black, 2));
    highlightItem_->setBrush(Qt::NoBrush);
    highlightItem_->setVisible(false);
    emptyText_ = new QCPItemText(this);
    emptyText_->position->setType(QCPItemPosition::ptAxisRectRatio);
    emptyText_->position->setCoords(0.5, 0.45);
    emptyText_->setColor(Qt::gray);
    emptyText_->setText(tr("No timeline yet: evaluate (F5)"));
    setSelectionRectMode(QCP::srmNone);
    selectionRect()->setBrush(QColor(0x30, 0x60, 0xc0, 40));
    connect(selectionRect(), &QCPSelectionRect::accepted, this, [this](const QRect& rect, QMouseEvent*) {
        const double a = xAxis->pixelToCoord(rect.left()), b = xAxis->pixelToCoord(rect.right());
        setSelection(std::min(a, b), std::max(a, b));
        setSelectionRectMode(QCP::srmNone);
    });
    connect(selectionRect(), &QCPSelectionRect::canceled, this, [this](const QRect&, QInputEvent*) {
        setSelectionRectMode(QCP::srmNone);
    });
    connect(xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this](const QCPRange&) { clampRange(); });
    connect(yAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this](const QCPRange&) { clampRange(); });
}

size_t TimelinePlot::lastBarCount() const { return bars_->lastBarCount(); }
size_t TimelinePlot::lastFlagLinkCount() const { return links_->lastFlagLinks(); }

void TimelinePlot::setTimeline(std::shared_ptr<const TimelineData> data, const QString& emptyMessage) {
    data_ = std::move(data);
    emptyText_->setVisible(!data_ || data_->empty());
    emptyText_->setText(emptyMessage.isEmpty() ? tr("No timeline yet: evaluate (F5)") : emptyMessage);
    bars_->setTimeline(data_);
    links_->setTimeline(data_);
    history_.clear();
    emit zoomDepthChanged(0);
    selection_.reset();
    selectionItem_->setVisible(false);
    highlightItem_->setVisible(false);
    auto ticker = QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText);
    if (data_)
        for (int lane = 0; lane < data_->laneCount(); ++lane) ticker->addTick(lane, data_->lane(lane).label());
    yAxis->setTicker(ticker);
    fit();
}

int TimelinePlot::lanesThatFit() const {
    // From the widget's height (less the x axis's labels), which is current during a resize while
    // the axis rect's is only after the next replot.
    const int line = QFontMetrics(yAxis->tickLabelFont()).height() + 2;
    const int height = this->height() - 3 * line;
    return std::clamp(height / line, 4, kMaxVisibleLanes);
}

void TimelinePlot::fit() {
    const double end = data_ && !data_->empty() ? double(data_->endTime()) : 1000.0;
    const int lanes = std::max(1, laneCount());
    clamping_ = true;
    xAxis->setRange(0, end * 1.01);
    yAxis->setRange(-0.5, std::min(lanes, lanesThatFit()) - 0.5);
    clamping_ = false;
    replot(rpQueuedReplot);
}

void TimelinePlot::clampRange() {
    if (clamping_ || !data_) return;
    clamping_ = true;
    const double end = std::max(1.0, double(data_->endTime())) * 1.02;
    QCPRange x = xAxis->range();
    const double size = std::clamp(x.size(), 20.0, end * 1.05);
    if (x.size() != size) x = QCPRange(x.center() - size / 2, x.center() + size / 2);
    if (x.lower < -end * 0.02) x = QCPRange(-end * 0.02, -end * 0.02 + size);
    if (x.upper > end) x = QCPRange(end - size, end);
    xAxis->setRange(x);
    const int lanes = std::max(1, laneCount());
    QCPRange y = yAxis->range();
    const double ySize = std::min<double>(y.size(), lanes);
    if (y.lower < -0.5) y = QCPRange(-0.5, -0.5 + ySize);
    if (y.upper > lanes - 0.5) y = QCPRange(lanes - 0.5 - ySize, lanes - 0.5);
    yAxis->setRange(y);
    clamping_ = false;
}

void TimelinePlot::remember(const QCPRange& previous) {
    history_.push({previous.lower, previous.upper});
    emit zoomDepthChanged(history_.depth());
}

void TimelinePlot::zoomBy(double factor, std::optional<double> center) {
    const QCPRange r = xAxis->range();
    remember(r);
    const double c = center.value_or(r.center());
    xAxis->setRange(c - (c - r.lower) * factor, c + (r.upper - c) * factor);
    replot(rpQueuedReplot);
}

void TimelinePlot::panBy(double fraction) {
    const QCPRange r = xAxis->range();
    remember(r);
    xAxis->setRange(r.lower + r.size() * fraction, r.upper + r.size() * fraction);
    replot(rpQueuedReplot);
}

bool TimelinePlot::undoZoom() {
    auto r = history_.undo();
    emit zoomDepthChanged(history_.depth());
    if (!r) return false;
    xAxis->setRange(r->first, r->second);
    replot(rpQueuedReplot);
    return true;
}

void TimelinePlot::setSelection(double t0, double t1) {
    selection_ = {std::max(0.0, t0), std::max(0.0, t1)};
    selectionItem_->topLeft->setTypeX(QCPItemPosition::ptPlotCoords);
    selectionItem_->bottomRight->setTypeX(QCPItemPosition::ptPlotCoords);
    selectionItem_->topLeft->setCoords(selection_->first, 0);
    selectionItem_->bottomRight->setCoords(selection_->second, 1);
    selectionItem_->setVisible(true);
    replot(rpQueuedReplot);
    emit rangeSelected(selection_->first, selection_->second);
}

void TimelinePlot::clearSelection() {
    selection_.reset();
    selectionItem_->setVisible(false);
    replot(rpQueuedReplot);
}

bool TimelinePlot::zoomToSelection() {
    if (!selection_ || selection_->second <= selection_->first) return false;
    remember(xAxis->range());
    xAxis->setRange(selection_->first, selection_->second);
    replot(rpQueuedReplot);
    return true;
}

void TimelinePlot::highlight(int lane, size_t event) {
    if (!data_ || lane < 0 || lane >= data_->laneCount() || event >= data_->laneEventCount(lane)) {
        highlightItem_->setVisible(false);
        replot(rpQueuedReplot);
        return;
    }
    const auto& e = data_->event(lane, event);
    highlightItem_->topLeft->setCoords(double(e.start), lane - 0.45);
    highlightItem_->bottomRight->setCoords(double(std::max(e.end, e.start + 1)), lane + 0.45);
    highlightItem_->setVisible(true);
    replot(rpQueuedReplot);
}

QPoint TimelinePlot::eventPixel(int lane, size_t event) const {
    const auto& e = data_->event(lane, event);
    return QPoint(int(std::lround(xAxis->coordToPixel((double(e.start) + double(e.end)) / 2))),
                  int(std::lround(yAxis->coordToPixel(lane))));
}

QString TimelinePlot::describe(int lane, size_t event) const {
    const auto& e = data_->event(lane, event);
    QString text = tr("<b>%1</b> on %2<br>line %3 · %4 cycles")
                       .arg(QString::fromStdString(data_->opName(e.op)).toHtmlEscaped(), data_->lane(lane).label())
                       .arg(e.line)
                       .arg(e.cycles());
    if (e.bytes) text += tr(" · %1 bytes").arg(e.bytes);
    if (e.repeats) text += tr(" · %1 repeats").arg(e.repeats);
    text += tr("<br>cycles %1 – %2").arg(e.start).arg(e.end);
    return text;
}

std::optional<std::pair<int, size_t>> TimelinePlot::hit(const QPoint& pos) const {
    if (!data_ || !axisRect()->rect().contains(pos)) return std::nullopt;
    const int lane = int(std::lround(yAxis->pixelToCoord(pos.y())));
    if (lane < 0 || lane >= data_->laneCount()) return std::nullopt;
    if (std::abs(yAxis->coordToPixel(lane) - pos.y()) > std::abs(yAxis->coordToPixel(1) - yAxis->coordToPixel(0)) * 0.45)
        return std::nullopt;
    const double t = xAxis->pixelToCoord(pos.x());
    const double tolerance = 3 * std::abs(xAxis->pixelToCoord(1) - xAxis->pixelToCoord(0));
    auto i = data_->eventAt(lane, t, tolerance);
    if (!i) return std::nullopt;
    return std::pair{lane, *i};
}

void TimelinePlot::keyPressEvent(QKeyEvent* event) {
    switch (event->key()) {
    case Qt::Key_W: zoomBy(0.7); return;
    case Qt::Key_S: zoomBy(1.0 / 0.7); return;
    case Qt::Key_A: panBy(-0.2); return;
    case Qt::Key_D: panBy(0.2); return;
    case Qt::Key_Backspace: undoZoom(); return;
    case Qt::Key_Escape: clearSelection(); return;
    default: QCustomPlot::keyPressEvent(event);
    }
}

void TimelinePlot::mousePressEvent(QMouseEvent* event) {
    setFocus(Qt::MouseFocusReason);
    pressPos_ = event->pos();
    pressRange_ = xAxis->range();
    setSelectionRectMode(event->modifiers() & Qt::ShiftModifier ? QCP::srmCustom : QCP::srmNone);
    QCustomPlot::mousePressEvent(event);
}

void TimelinePlot::mouseMoveEvent(QMouseEvent* event) {
    QCustomPlot::mouseMoveEvent(event);
    if (event->buttons() != Qt::NoButton) return;
    if (auto h = hit(event->pos())) QToolTip::showText(event->globalPosition().toPoint(), describe(h->first, h->second), this);
    else QToolTip::hideText();
}

void TimelinePlot::mouseReleaseEvent(QMouseEvent* event) {
    QCustomPlot::mouseReleaseEvent(event);
    if (xAxis->range() != pressRange_) remember(pressRange_);
    if ((event->pos() - pressPos_).manhattanLength() > 3 || event->button() != Qt::LeftButton ||
        (event->modifiers() & Qt::ShiftModifier))
        return;
    if (auto h = hit(event->pos())) {
        highlight(h->first, h->second);
        emit eventClicked(h->first, h->second);
    }
}

void TimelinePlot::resizeEvent(QResizeEvent* event) {
    // About one label per 110 pixels, so they never overlap.
    if (auto t = xAxis->ticker()) t->setTickCount(std::clamp(event->size().width() / 110, 2, 10));
    QCustomPlot::resizeEvent(event);
}

void TimelinePlot::wheelEvent(QWheelEvent* event) {
    if (!lastWheel_.isValid() || lastWheel_.elapsed() > 600) remember(xAxis->range());
    lastWheel_.start();
    QCustomPlot::wheelEvent(event);
}

} // namespace sage::ui
