#include "ui/TimeMapping.h"

#include <algorithm>

namespace sage::ui {

TimeMapping::TimeMapping(double t0, double t1, double left, double width)
    : t0_(t0), t1_(std::max(t1, t0 + 1e-9)), left_(left), width_(std::max(width, 1.0)) {
    scale_ = width_ / (t1_ - t0_);
}

} // namespace sage::ui
