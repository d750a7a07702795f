// Draws the timeline's bars into a QCustomPlot: only the visible window, one bar per event wider
// than a pixel, sub-pixel runs merged (TimelineBinner). Lanes sit at value 0, 1, 2, ...
#pragma once

#include "ui/TimelineData.h"

#include <qcustomplot.h>

#include <memory>

namespace sage::ui {

class TimelineBarsPlottable : public QCPAbstractPlottable {
    Q_OBJECT
public:
    TimelineBarsPlottable(QCPAxis* keyAxis, QCPAxis* valueAxis);
    void setTimeline(std::shared_ptr<const TimelineData> data);
    const TimelineData* timeline() const { return data_.get(); }
    size_t lastBarCount() const { return lastBars_; }

    double selectTest(const QPointF& pos, bool onlySelectable, QVariant* details = nullptr) const override;
    QCPRange getKeyRange(bool& foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth) const override;
    QCPRange getValueRange(bool& foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth,
                           const QCPRange& inKeyRange = QCPRange()) const override;

protected:
    void draw(QCPPainter* painter) override;
    void drawLegendIcon(QCPPainter* painter, const QRectF& rect) const override;

private:
    std::shared_ptr<const TimelineData> data_;
    size_t lastBars_ = 0;
};

} // namespace sage::ui
