// File → Open op project…: runs `sage op` (core OpRunner: host tiling, compile, run, verify,
// profile) for an op directory off the GUI thread and hands back the report and, for the panels,
// the evaluation of one configuration (the first that failed, else the first) with its timeline. One run at a time; a new
// request while one runs is refused (the caller says so), never queued behind the GUI.
#pragma once

#include "sage_eval/Evaluator.h"
#include "ui/EvaluationResult.h"

#include <QObject>
#include <QString>

#include <memory>

namespace sage::ui {

class OpProjectService : public QObject {
    Q_OBJECT
public:
    explicit OpProjectService(std::shared_ptr<const eval::Evaluator> evaluator, QObject* parent = nullptr);
    // The spec: DIR/sage-spec, else DIR/spec, else resources/op-specs/<category>/<op>; "" when there is none.
    static QString specFor(const QString& dir, const QString& resourcesDir);
    // `revision` and `source`: the editor text the kernel file held, so the result can be matched to it.
    bool start(const QString& dir, const QString& specDir, const QString& deviceId, quint64 revision = 0,
               const QString& source = {});
    bool busy() const { return busy_; }

signals:
    void finished(const QString& report, bool pass);
    void evaluated(sage::ui::EvaluationResultPtr result);  // before finished; not when the host side failed

private:
    std::shared_ptr<const eval::Evaluator> evaluator_;
    bool busy_ = false;
};

} // namespace sage::ui
