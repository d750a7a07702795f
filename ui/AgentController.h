// Owns the agent loop for the GUI: starts it on its own thread (AgentLoop::start) and forwards
// Start/Pause/Step/Resume/Stop and edits; the loop's events arrive as queued signals through an
// AgentEventAdapter. A finished loop is kept until the next start, so the GUI never joins a
// thread that is still working.
#pragma once

#include "sage_agent/AgentLoop.h"
#include "ui/AgentEventAdapter.h"

#include <QObject>

#include <memory>

namespace sage::ui {

class AgentController : public QObject {
    Q_OBJECT
public:
    enum class State { Idle, Running, Pausing, Paused, Finished };
    Q_ENUM(State)

    explicit AgentController(std::shared_ptr<const eval::Evaluator> evaluator, QObject* parent = nullptr);
    ~AgentController() override;

    // Returns false (with the reason in *error) when a run is active or the policy is unavailable.
    // A non-empty `startSource` is evaluated as iteration 0 (origin "engineer") instead of a draft.
    bool start(const eval::Task& task, const agent::AgentSettings& settings, const QString& dbPath, bool startPaused,
               QString* error = nullptr, const QString& startSource = {}, const QString& startLabel = {});
    void pause();
    void step();
    void resume();
    void stop();
    bool submitEdit(const QString& source);  // while paused: the next iteration is this source
    State state() const { return state_; }
    bool active() const { return state_ == State::Running || state_ == State::Pausing || state_ == State::Paused; }
    qint64 runId() const { return runId_; }
    int currentIteration() const { return iteration_; }
    AgentEventAdapter* adapter() const { return adapter_; }

signals:
    void stateChanged(sage::ui::AgentController::State state);
    void eventArrived(sage::ui::AgentEventPtr event);

private:
    void handle(const AgentEventPtr& event);
    void setState(State s);
    std::shared_ptr<const eval::Evaluator> evaluator_;
    std::unique_ptr<agent::AgentLoop> loop_;
    AgentEventAdapter* adapter_;
    State state_ = State::Idle;
    qint64 runId_ = 0;
    int iteration_ = -1;
};

} // namespace sage::ui
