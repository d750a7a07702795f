#include "ui/TimelineLinksPlottable.h"

#include <cmath>
#include <vector>

namespace sage::ui {

namespace {
const QColor kFlagColour(0x8e, 0x24, 0xaa);   // purple: stands apart from every pipe colour
const QColor kQueueColour(0x60, 0x60, 0x60, 110);
} // namespace

TimelineLinksPlottable::TimelineLinksPlottable(QCPAxis* keyAxis, QCPAxis* valueAxis)
    : QCPAbstractPlottable(keyAxis, valueAxis) {
    setSelectable(QCP::stNone);
    setAntialiased(true);
}

void TimelineLinksPlottable::setTimeline(std::shared_ptr<const TimelineData> data) { data_ = std::move(data); }

double TimelineLinksPlottable::selectTest(const QPointF&, bool, QVariant*) const { return -1; }

QCPRange TimelineLinksPlottable::getKeyRange(bool& foundRange, QCP::SignDomain) const {
    foundRange = false;
    return {};
}

QCPRange TimelineLinksPlottable::getValueRange(bool& foundRange, QCP::SignDomain, const QCPRange&) const {
    foundRange = false;
    return {};
}

void TimelineLinksPlottable::draw(QCPPainter* painter) {
    lastFlagLinks_ = 0;
    if (!data_ || data_->links().empty() || !keyAxis() || !valueAxis()) return;
    const QCPRange kr = keyAxis()->range();
    const uint64_t t0 = kr.lower <= 0 ? 0 : uint64_t(kr.lower);
    const uint64_t t1 = kr.upper <= 0 ? 0 : uint64_t(std::ceil(kr.upper));
    const auto& links = data_->links();
    std::vector<const TimelineLink*> queue;
    applyDefaultAntialiasingHint(painter);
    for (size_t i = data_->firstLinkReaching(t0); i < links.size() && links[i].lo() <= t1; ++i) {
        const TimelineLink& l = links[i];
        if (l.hi() < t0) continue;
        if (l.queue) {
            if (queue.size() <= kMaxQueueLinksDrawn) queue.push_back(&l);
            continue;
        }
        drawLink(painter, l);
        ++lastFlagLinks_;
    }
    if (queue.size() <= kMaxQueueLinksDrawn)
        for (const TimelineLink* l : queue) drawLink(painter, *l);
}

void TimelineLinksPlottable::drawLink(QCPPainter* painter, const TimelineLink& l) const {
    const QPointF a(keyAxis()->coordToPixel(double(l.from)), valueAxis()->coordToPixel(l.fromLane));
    const QPointF b(keyAxis()->coordToPixel(double(l.to)), valueAxis()->coordToPixel(l.toLane));
    const QColor c = l.queue ? kQueueColour : kFlagColour;
    painter->setPen(QPen(c, l.queue ? 1.0 : 1.6));
    painter->setBrush(Qt::NoBrush);
    painter->drawLine(a, b);
    if (l.queue) return;
    // The set end: a diamond; the wait end: an arrow head pointing along the link.
    painter->setBrush(c);
    const double r = 3.5;
    painter->drawPolygon(QPolygonF({a + QPointF(0, -r), a + QPointF(r, 0), a + QPointF(0, r), a + QPointF(-r, 0)}));
    const QPointF d = b - a;
    const double length = std::hypot(d.x(), d.y());
    if (length < 1) return;
    const QPointF u = d / length, n(-u.y(), u.x());
    painter->drawPolygon(QPolygonF({b, b - 7 * u + 3.5 * n, b - 7 * u - 3.5 * n}));
}

void TimelineLinksPlottable::drawLegendIcon(QCPPainter*, const QRectF&) const {}

} // namespace sage::ui
