// The engineer's hold on a running loop, shared between the loop's thread and the caller's:
// pause after the current iteration, step one iteration, resume, cancel, and an edit submitted
// while paused that becomes the next iteration.
#pragma once

#include "sage_agent/AgentLoop.h"

#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <string>

namespace sage::agent {

class RunControl {
public:
    using State = AgentLoop::State;

    void pause();
    void step();
    void resume();
    void requestCancel();
    bool cancelled() const { return cancel_.load(); }
    const std::atomic<bool>* cancelFlag() const { return &cancel_; }
    bool submitEdit(const std::string& source);  // false unless paused
    State state() const;
    void setState(State s);
    void setPausedAtStart(bool paused);

    // Between iterations: blocks while paused (calling onPause/onResume around the wait) and
    // returns the engineer's edit, if one was submitted.
    std::optional<std::string> checkpoint(const std::function<void()>& onPause,
                                          const std::function<void(bool edited)>& onResume);

private:
    mutable std::mutex mu_;
    std::condition_variable cv_;
    State state_ = State::Idle;
    bool pauseRequested_ = false, stepping_ = false;
    std::optional<std::string> pendingEdit_;
    std::atomic<bool> cancel_{false};
};

} // namespace sage::agent
