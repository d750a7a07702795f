// Runs the core evaluation pipeline off the GUI thread (QtConcurrent + QFutureWatcher), the way
// hotspot's JobTracker does: each request gets a new job id; starting a job cancels the one in
// flight (its result is dropped); cancel() stops the current one. Results come back on the GUI
// thread through `finished`, tagged with the job id and the editor revision they belong to.
#pragma once

#include "sage_eval/Evaluator.h"
#include "sage_eval/Task.h"
#include "ui/EvaluationResult.h"

#include <QElapsedTimer>
#include <QObject>

#include <atomic>
#include <functional>
#include <memory>

namespace sage::ui {

struct EvaluationJob {
    std::shared_ptr<const eval::Task> task;
    QString source;
    QString kernelName = QStringLiteral("kernel.cpp");
    QString deviceId;
    quint64 revision = 0;
    EvaluationKind kind = EvaluationKind::Evaluate;
    int seeds = 3;
    double timeoutSeconds = 60;
};

class EvaluationService : public QObject {
    Q_OBJECT
public:
    EvaluationService(std::shared_ptr<const eval::Evaluator> evaluator, QObject* parent = nullptr);
    ~EvaluationService() override;

    quint64 start(const EvaluationJob& job);  // returns the job id
    void cancel();                            // the running job stops; `finished` reports it cancelled
    bool busy() const { return running_ != 0; }
    quint64 currentJob() const { return current_; }
    double elapsedSeconds() const { return clock_.isValid() ? clock_.elapsed() / 1000.0 : 0; }
    const eval::Evaluator& evaluator() const { return *evaluator_; }
    std::shared_ptr<const eval::Evaluator> sharedEvaluator() const { return evaluator_; }

    // Test hook: runs on the worker before the pipeline (e.g. to make an evaluation slow).
    void setBeforeRunHook(std::function<void()> hook) { beforeRun_ = std::move(hook); }

signals:
    void started(quint64 jobId, sage::ui::EvaluationKind kind);
    void finished(sage::ui::EvaluationResultPtr result);  // only the latest job's result
    void busyChanged(bool busy);

private:
    std::shared_ptr<const eval::Evaluator> evaluator_;
    std::shared_ptr<std::atomic<bool>> cancel_;
    quint64 nextId_ = 0, current_ = 0;
    int running_ = 0;
    QElapsedTimer clock_;
    std::function<void()> beforeRun_;
};

} // namespace sage::ui
