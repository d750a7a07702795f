// File → Open op project…: runs `sage op` (core OpRunner: host tiling, compile, run, verify) for
// an op directory off the GUI thread and hands the report back on it. One run at a time; a new
// request while one runs is refused (the caller says so), never queued behind the GUI.
#pragma once

#include "sage_eval/Evaluator.h"

#include <QObject>
#include <QString>

#include <memory>

namespace sage::ui {

class OpProjectService : public QObject {
    Q_OBJECT
public:
    explicit OpProjectService(std::shared_ptr<const eval::Evaluator> evaluator, QObject* parent = nullptr);
    // The spec: DIR/sage-spec, else resources/op-specs/<category>/<op>; "" when there is none.
    static QString specFor(const QString& dir, const QString& resourcesDir);
    bool start(const QString& dir, const QString& specDir, const QString& deviceId);
    bool busy() const { return busy_; }

signals:
    void finished(const QString& report, bool pass);

private:
    std::shared_ptr<const eval::Evaluator> evaluator_;
    bool busy_ = false;
};

} // namespace sage::ui
