// The undo stack of timeline zooms: every zoom, pan or "zoom to selection" pushes the range it
// left; "undo zoom" pops it. Consecutive pushes of the same range are stored once.
#pragma once

#include <optional>
#include <utility>
#include <vector>

namespace sage::ui {

class ZoomHistory {
public:
    using Range = std::pair<double, double>;
    void push(Range previous);
    std::optional<Range> undo();
    int depth() const { return int(stack_.size()); }
    void clear() { stack_.clear(); }

private:
    std::vector<Range> stack_;
    static constexpr size_t kLimit = 100;
};

} // namespace sage::ui
