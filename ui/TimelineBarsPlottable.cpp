#include "ui/TimelineBarsPlottable.h"

#include "ui/PipePalette.h"
#include "ui/TimeMapping.h"
#include "ui/TimelineBinner.h"

#include <cmath>

namespace sage::ui {

TimelineBarsPlottable::TimelineBarsPlottable(QCPAxis* keyAxis, QCPAxis* valueAxis)
    : QCPAbstractPlottable(keyAxis, valueAxis) {
    setSelectable(QCP::stNone);
    setAntialiased(false);
}

void TimelineBarsPlottable::setTimeline(std::shared_ptr<const TimelineData> data) { data_ = std::move(data); }

double TimelineBarsPlottable::selectTest(const QPointF&, bool, QVariant*) const { return -1; }

QCPRange TimelineBarsPlottable::getKeyRange(bool& foundRange, QCP::SignDomain) const {
    foundRange = data_ && !data_->empty();
    return foundRange ? QCPRange(0, double(data_->endTime())) : QCPRange();
}

QCPRange TimelineBarsPlottable::getValueRange(bool& foundRange, QCP::SignDomain, const QCPRange&) const {
    foundRange = data_ && data_->laneCount() > 0;
    return foundRange ? QCPRange(-0.5, data_->laneCount() - 0.5) : QCPRange();
}

void TimelineBarsPlottable::draw(QCPPainter* painter) {
    lastBars_ = 0;
    if (!data_ || data_->empty()) return;
    QCPAxis* key = keyAxis();
    QCPAxis* value = valueAxis();
    if (!key || !value) return;
    const QCPRange kr = key->range();
    const double left = key->coordToPixel(kr.lower);
    const double width = std::abs(key->coordToPixel(kr.upper) - left);
    const TimeMapping mapping(kr.lower, kr.upper, left, width);
    const QCPRange vr = value->range();
    const int firstLane = int(std::floor(std::min(vr.lower, vr.upper) - 0.5));
    const int lastLane = int(std::ceil(std::max(vr.lower, vr.upper) + 0.5));
    const auto bars = TimelineBinner::bin(*data_, mapping, firstLane, lastLane);
    lastBars_ = bars.size();
    const double laneHeight = std::abs(value->coordToPixel(1) - value->coordToPixel(0));
    const double half = std::max(1.0, laneHeight * 0.36);
    const QRect clip = clipRect();
    painter->setPen(Qt::NoPen);
    for (const TimelineBar& b : bars) {
        double x0 = mapping.toPixel(double(b.start));
        double x1 = mapping.toPixel(double(b.end));
        if (x1 - x0 < 1) x1 = x0 + 1;
        x0 = std::max(x0, double(clip.left()) - 2);
        x1 = std::min(x1, double(clip.right()) + 2);
        const double y = value->coordToPixel(b.lane);
        QColor c = PipePalette::colour(data_->lane(b.lane).pipe);
        if (b.merged()) {  // shade merged bars by how busy the pipe was over them
            const double span = double(std::max<uint64_t>(1, b.end - b.start));
            c.setAlphaF(std::clamp(double(b.busy) / span, 0.3, 1.0));
        }
        const QRectF r(QPointF(x0, y - half), QPointF(x1, y + half));
        painter->fillRect(r, c);
        if (r.width() >= 6 && !b.merged()) {
            painter->setPen(QPen(c.darker(140), 1));
            painter->drawRect(r);
            painter->setPen(Qt::NoPen);
        }
    }
}

void TimelineBarsPlottable::drawLegendIcon(QCPPainter*, const QRectF&) const {}

} // namespace sage::ui
