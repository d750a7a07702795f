#include "loop/RunControl.h"

namespace sage::agent {

void RunControl::pause() {
    std::lock_guard<std::mutex> g(mu_);
    pauseRequested_ = true;
}

void RunControl::step() {
    std::lock_guard<std::mutex> g(mu_);
    stepping_ = true;
    pauseRequested_ = false;
    cv_.notify_all();
}

void RunControl::resume() {
    std::lock_guard<std::mutex> g(mu_);
    pauseRequested_ = false;
    stepping_ = false;
    cv_.notify_all();
}

void RunControl::requestCancel() {
    cancel_ = true;
    std::lock_guard<std::mutex> g(mu_);
    cv_.notify_all();
}

bool RunControl::submitEdit(const std::string& source) {
    std::lock_guard<std::mutex> g(mu_);
    if (state_ != State::Paused) return false;
    pendingEdit_ = source;
    cv_.notify_all();
    return true;
}

AgentLoop::State RunControl::state() const {
    std::lock_guard<std::mutex> g(mu_);
    return state_;
}

void RunControl::setState(State s) {
    std::lock_guard<std::mutex> g(mu_);
    state_ = s;
    cv_.notify_all();
}

void RunControl::setPausedAtStart(bool paused) {
    std::lock_guard<std::mutex> g(mu_);
    pauseRequested_ = paused;
    state_ = State::Running;
}

std::optional<std::string> RunControl::checkpoint(const std::function<void()>& onPause,
                                                  const std::function<void(bool edited)>& onResume) {
    std::unique_lock<std::mutex> lk(mu_);
    if (stepping_) {  // a step ran one iteration: pause again
        stepping_ = false;
        pauseRequested_ = true;
    }
    if (!pauseRequested_ || cancel_) return std::nullopt;
    state_ = State::Paused;
    cv_.notify_all();
    lk.unlock();
    onPause();
    lk.lock();
    // An edit submitted while paused is applied when the engineer resumes (or steps).
    cv_.wait(lk, [&] { return !pauseRequested_ || cancel_; });
    std::optional<std::string> edit = std::move(pendingEdit_);
    pendingEdit_.reset();
    state_ = State::Running;
    lk.unlock();
    onResume(edit.has_value());
    return edit;
}

} // namespace sage::agent
