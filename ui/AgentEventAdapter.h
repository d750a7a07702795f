// The thin adapter between the agent loop's observer (called on the loop's thread) and Qt: every
// event is copied and re-emitted on the adapter's thread (the GUI) through a queued call.
#pragma once

#include "sage_agent/AgentEvents.h"

#include <QMetaType>
#include <QObject>

#include <memory>

namespace sage::ui {

using AgentEventPtr = std::shared_ptr<const agent::AgentEvent>;

class AgentEventAdapter : public QObject {
    Q_OBJECT
public:
    explicit AgentEventAdapter(QObject* parent = nullptr);
    // An observer for AgentLoop::addObserver. The adapter must outlive the loop's thread.
    agent::AgentObserver observer();

signals:
    void eventArrived(sage::ui::AgentEventPtr event);
};

} // namespace sage::ui

Q_DECLARE_METATYPE(sage::ui::AgentEventPtr)
