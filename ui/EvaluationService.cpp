#include "ui/EvaluationService.h"

#include <QFutureWatcher>
#include <QPointer>
#include <QtConcurrent/QtConcurrent>

namespace sage::ui {

EvaluationService::EvaluationService(std::shared_ptr<const eval::Evaluator> evaluator, QObject* parent)
    : QObject(parent), evaluator_(std::move(evaluator)) {
    qRegisterMetaType<EvaluationResultPtr>();
}

EvaluationService::~EvaluationService() {
    if (cancel_) cancel_->store(true);
}

quint64 EvaluationService::start(const EvaluationJob& job) {
    if (cancel_) cancel_->store(true);  // the previous job is superseded
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    cancel_ = cancel;
    const quint64 id = ++nextId_;
    current_ = id;
    clock_.start();
    auto evaluator = evaluator_;
    auto hook = beforeRun_;
    auto work = [evaluator, job, cancel, id, hook]() -> EvaluationResultPtr {
        auto r = std::make_shared<EvaluationResult>();
        r->jobId = id;
        r->revision = job.revision;
        r->kind = job.kind;
        r->taskName = QString::fromStdString(job.task->name);
        r->source = job.source;
        try {
            if (hook) hook();
            eval::EvalRequest req;
            req.source = job.source.toStdString();
            req.kernelName = job.kernelName.toStdString();
            if (!job.deviceId.isEmpty()) req.deviceId = job.deviceId.toStdString();
            req.seeds = size_t(std::max(1, job.seeds));
            req.timeoutSeconds = job.timeoutSeconds;
            req.compileOnly = job.kind == EvaluationKind::Compile;
            req.profile = job.kind == EvaluationKind::Evaluate;
            req.cancel = cancel.get();
            auto ev = std::make_shared<eval::Evaluation>(evaluator->evaluate(*job.task, req));
            if (ev->profile.present && !cancel->load())
                r->timeline = std::make_shared<TimelineData>(TimelineData::fromProfile(ev->profile));
            r->evaluation = std::move(ev);
        } catch (const std::exception& e) {
            r->error = QString::fromStdString(e.what());
        }
        r->cancelled = cancel->load();
        return r;
    };
    auto* watcher = new QFutureWatcher<EvaluationResultPtr>(this);
    connect(watcher, &QFutureWatcher<EvaluationResultPtr>::finished, this, [this, watcher]() {
        watcher->deleteLater();
        EvaluationResultPtr r = watcher->result();
        if (--running_ == 0) emit busyChanged(false);
        if (r->jobId != current_) return;  // superseded: a newer job owns the panels
        cancel_.reset();
        emit finished(r);
    });
    if (running_++ == 0) emit busyChanged(true);
    watcher->setFuture(QtConcurrent::run(work));
    emit started(id, job.kind);
    return id;
}

void EvaluationService::cancel() {
    if (cancel_) cancel_->store(true);
}

} // namespace sage::ui
