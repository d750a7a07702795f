// Maps cycles on the timeline to pixels and back for one visible window: [t0, t1] cycles drawn
// over `width` pixels starting at pixel `left`.
#pragma once

namespace sage::ui {

class TimeMapping {
public:
    TimeMapping(double t0, double t1, double left, double width);
    double toPixel(double t) const { return left_ + (t - t0_) * scale_; }
    double toTime(double px) const { return t0_ + (px - left_) / scale_; }
    double cyclesPerPixel() const { return 1.0 / scale_; }
    double t0() const { return t0_; }
    double t1() const { return t1_; }
    double left() const { return left_; }
    double width() const { return width_; }

private:
    double t0_, t1_, left_, width_, scale_;
};

} // namespace sage::ui
