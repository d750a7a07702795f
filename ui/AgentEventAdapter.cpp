#include "ui/AgentEventAdapter.h"

namespace sage::ui {

AgentEventAdapter::AgentEventAdapter(QObject* parent) : QObject(parent) { qRegisterMetaType<AgentEventPtr>(); }

agent::AgentObserver AgentEventAdapter::observer() {
    return [this](const agent::AgentEvent& e) {
        auto copy = std::make_shared<const agent::AgentEvent>(e);
        QMetaObject::invokeMethod(this, [this, copy]() { emit eventArrived(copy); }, Qt::QueuedConnection);
    };
}

} // namespace sage::ui
