// The timeline view: one lane per (core, pipe), bars coloured by pipe. Wheel zooms, drag pans,
// W/S zoom in/out, A/D pan, Backspace undoes the last zoom, Shift+drag selects a time range,
// hovering shows the op, source line, cycles and bytes; clicking an event reports it.
#pragma once

#include "ui/TimelineData.h"
#include "ui/ZoomHistory.h"

#include <qcustomplot.h>

#include <QElapsedTimer>

#include <memory>
#include <optional>

namespace sage::ui {

class TimelineBarsPlottable;
class TimelineLinksPlottable;

class TimelinePlot : public QCustomPlot {
    Q_OBJECT
public:
    static constexpr int kMaxVisibleLanes = 28;  // Fit shows at most this many; drag vertically for more
    // Lanes whose labels fit the plot's height without overlapping (4 to kMaxVisibleLanes).
    int lanesThatFit() const;

    explicit TimelinePlot(QWidget* parent = nullptr);
    void setTimeline(std::shared_ptr<const TimelineData> data, const QString& emptyMessage = {});
    const TimelineData* timeline() const { return data_.get(); }
    int laneCount() const { return data_ ? data_->laneCount() : 0; }
    size_t lastBarCount() const;
    size_t lastFlagLinkCount() const;  // SetFlag -> WaitFlag arrows drawn in the last replot

    void zoomBy(double factor, std::optional<double> center = std::nullopt);  // factor < 1 zooms in
    void panBy(double fraction);
    bool undoZoom();
    int zoomDepth() const { return history_.depth(); }
    void fit();
    void setSelection(double t0, double t1);
    void clearSelection();
    std::optional<std::pair<double, double>> selection() const { return selection_; }
    bool zoomToSelection();
    void highlight(int lane, size_t event);
    // The pixel at the middle of an event (for tests and for "show in timeline").
    QPoint eventPixel(int lane, size_t event) const;
    QString describe(int lane, size_t event) const;  // the hover text

signals:
    void eventClicked(int lane, qulonglong event);
    void rangeSelected(double t0, double t1);
    void zoomDepthChanged(int depth);

protected:
    void keyPressEvent(QKeyEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    std::optional<std::pair<int, size_t>> hit(const QPoint& pos) const;
    void remember(const QCPRange& previous);
    void clampRange();

    std::shared_ptr<const TimelineData> data_;
    TimelineBarsPlottable* bars_;
    TimelineLinksPlottable* links_;
    QCPItemRect* selectionItem_;
    QCPItemRect* highlightItem_;
    QCPItemText* emptyText_;
    ZoomHistory history_;
    std::optional<std::pair<double, double>> selection_;
    QPoint pressPos_;
    QCPRange pressRange_;
    QElapsedTimer lastWheel_;
    bool clamping_ = false;
};

} // namespace sage::ui
