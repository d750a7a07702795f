// Draws the timeline's synchronisation links over the bars: each SetFlag -> WaitFlag as an arrow
// from where the flag was set to where the wait began, with a marker at both ends; EnQue -> DeQue
// links faintly, and only while few enough are in view to read. Only links that touch the
// visible window are visited (TimelineData keeps them ordered for that).
#pragma once

#include "ui/TimelineData.h"

#include <qcustomplot.h>

#include <memory>

namespace sage::ui {

class TimelineLinksPlottable : public QCPAbstractPlottable {
    Q_OBJECT
public:
    static constexpr size_t kMaxQueueLinksDrawn = 200;

    TimelineLinksPlottable(QCPAxis* keyAxis, QCPAxis* valueAxis);
    void setTimeline(std::shared_ptr<const TimelineData> data);
    size_t lastFlagLinks() const { return lastFlagLinks_; }  // drawn in the last replot

    double selectTest(const QPointF& pos, bool onlySelectable, QVariant* details = nullptr) const override;
    QCPRange getKeyRange(bool& foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth) const override;
    QCPRange getValueRange(bool& foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth,
                           const QCPRange& inKeyRange = QCPRange()) const override;

protected:
    void draw(QCPPainter* painter) override;
    void drawLegendIcon(QCPPainter* painter, const QRectF& rect) const override;

private:
    void drawLink(QCPPainter* painter, const TimelineLink& link) const;
    std::shared_ptr<const TimelineData> data_;
    size_t lastFlagLinks_ = 0;
};

} // namespace sage::ui
