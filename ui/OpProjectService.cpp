#include "ui/OpProjectService.h"

#include "sage_eval/OpProject.h"

#include <QDir>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrent>

namespace sage::ui {

OpProjectService::OpProjectService(std::shared_ptr<const eval::Evaluator> evaluator, QObject* parent)
    : QObject(parent), evaluator_(std::move(evaluator)) {}

QString OpProjectService::specFor(const QString& dir, const QString& resourcesDir) {
    // `sage op init` writes DIR/sage-spec; projects also keep their spec in DIR/spec.
    for (const QString& own : {QString::fromStdString(eval::ownOpSpecDir(dir.toStdString())), QDir(dir).filePath(QStringLiteral("spec"))})
        if (QFileInfo::exists(own + QStringLiteral("/task.json"))) return own;
    const std::string found =
        eval::findOpSpec(QDir(resourcesDir).filePath(QStringLiteral("op-specs")).toStdString(), dir.toStdString());
    return QString::fromStdString(found);
}

namespace {
struct OpOutcome {
    QString report;
    bool pass = false;
    EvaluationResultPtr result;  // null when no configuration got as far as an evaluation
};

// The configuration the panels show: the first that did not succeed, else the first.
EvaluationResultPtr panelResult(const eval::OpRunReport& report, const eval::OpSpec& spec, quint64 revision,
                                const QString& source) {
    const eval::OpConfigResult* shown = nullptr;
    for (const auto& c : report.configs)
        if (c.hostOk && (!shown || (shown->evaluation.success() && !c.evaluation.success()))) shown = &c;
    if (!shown) return nullptr;
    auto r = std::make_shared<EvaluationResult>();
    r->revision = revision;
    r->kind = EvaluationKind::Evaluate;
    r->task = std::make_shared<const eval::Task>(spec.task);
    r->taskName = QString::fromStdString(spec.task.name);
    r->source = source;
    auto ev = std::make_shared<eval::Evaluation>(shown->evaluation);
    if (ev->profile.present) r->timeline = std::make_shared<TimelineData>(TimelineData::fromProfile(ev->profile));
    r->evaluation = std::move(ev);
    return r;
}
} // namespace

bool OpProjectService::start(const QString& dir, const QString& specDir, const QString& deviceId, quint64 revision,
                             const QString& source) {
    if (busy_ || !evaluator_) return false;
    busy_ = true;
    auto evaluator = evaluator_;
    auto work = [evaluator, d = dir.toStdString(), s = specDir.toStdString(), dev = deviceId.toStdString(), revision,
                 source]() {
        OpOutcome out;
        try {
            eval::OpRunOptions o;
            o.deviceId = dev;
            o.profile = true;  // the timeline panel shows the op like any kernel
            const eval::OpSpec spec = eval::OpSpec::loadDirectory(s);
            const auto report = eval::OpRunner(*evaluator).run(eval::OpProject::open(d), spec, o);
            out.report = QString::fromStdString(report.toText());
            out.pass = report.pass();
            out.result = panelResult(report, spec, revision, source);
        } catch (const std::exception& e) {
            out.report = QStringLiteral("error: ") + QString::fromStdString(e.what());
        }
        return out;
    };
    auto* watcher = new QFutureWatcher<OpOutcome>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher]() {
        const OpOutcome out = watcher->result();
        watcher->deleteLater();
        busy_ = false;
        if (out.result) emit evaluated(out.result);
        emit finished(out.report, out.pass);
    });
    watcher->setFuture(QtConcurrent::run(work));
    return true;
}

} // namespace sage::ui
