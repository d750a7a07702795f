#include "ui/ZoomHistory.h"

namespace sage::ui {

void ZoomHistory::push(Range previous) {
    if (!stack_.empty() && stack_.back() == previous) return;
    stack_.push_back(previous);
    if (stack_.size() > kLimit) stack_.erase(stack_.begin());
}

std::optional<ZoomHistory::Range> ZoomHistory::undo() {
    if (stack_.empty()) return std::nullopt;
    Range r = stack_.back();
    stack_.pop_back();
    return r;
}

} // namespace sage::ui
