#include "ui/AgentController.h"

namespace sage::ui {

AgentController::AgentController(std::shared_ptr<const eval::Evaluator> evaluator, QObject* parent)
    : QObject(parent), evaluator_(std::move(evaluator)), adapter_(new AgentEventAdapter(this)) {
    connect(adapter_, &AgentEventAdapter::eventArrived, this, &AgentController::handle);
}

AgentController::~AgentController() {
    if (loop_) loop_->cancel();
    loop_.reset();  // joins the loop's thread (cancelled: it stops at once)
}

bool AgentController::start(const eval::Task& task, const agent::AgentSettings& settings, const QString& dbPath,
                            bool startPaused, QString* error, const QString& startSource, const QString& startLabel) {
    if (active()) {
        if (error) *error = tr("a run is already active");
        return false;
    }
    try {
        auto policy = agent::makePolicy(settings);
        loop_.reset();  // the previous loop has finished: joining returns at once
        loop_ = std::make_unique<agent::AgentLoop>(*evaluator_, std::move(policy), settings);
        loop_->addObserver(adapter_->observer());
        if (!startSource.isEmpty())
            loop_->setStartCandidate(startSource.toStdString(),
                                     (startLabel.isEmpty() ? tr("the editor") : startLabel).toStdString());
        runId_ = 0;
        iteration_ = -1;
        loop_->start(task, dbPath.toStdString(), startPaused);
    } catch (const std::exception& e) {
        loop_.reset();
        if (error) *error = QString::fromStdString(e.what());
        return false;
    }
    setState(startPaused ? State::Pausing : State::Running);
    return true;
}

void AgentController::pause() {
    if (!loop_ || state_ != State::Running) return;
    loop_->pause();
    setState(State::Pausing);
}

void AgentController::step() {
    if (!loop_ || (state_ != State::Paused && state_ != State::Pausing)) return;
    loop_->step();
    setState(State::Pausing);  // it pauses again after one iteration
}

void AgentController::resume() {
    if (!loop_ || !active()) return;
    loop_->resume();
    setState(State::Running);
}

void AgentController::stop() {
    if (loop_) loop_->cancel();
}

bool AgentController::submitEdit(const QString& source) {
    return loop_ && state_ == State::Paused && loop_->submitEdit(source.toStdString());
}

void AgentController::setState(State s) {
    if (s == state_) return;
    state_ = s;
    emit stateChanged(s);
}

void AgentController::handle(const AgentEventPtr& e) {
    using T = agent::AgentEventType;
    switch (e->type) {
    case T::RunStarted: runId_ = e->runId; break;
    case T::IterationStarted: iteration_ = e->iteration; break;
    case T::Paused: setState(State::Paused); break;
    case T::Resumed:
        if (state_ == State::Paused) setState(State::Running);
        break;
    case T::RunFinished: setState(State::Finished); break;
    default: break;
    }
    emit eventArrived(e);
}

} // namespace sage::ui
