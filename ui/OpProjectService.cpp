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
    const std::string own = eval::ownOpSpecDir(dir.toStdString());
    if (QFileInfo::exists(QString::fromStdString(own + "/task.json"))) return QString::fromStdString(own);
    const std::string found =
        eval::findOpSpec(QDir(resourcesDir).filePath(QStringLiteral("op-specs")).toStdString(), dir.toStdString());
    return QString::fromStdString(found);
}

bool OpProjectService::start(const QString& dir, const QString& specDir, const QString& deviceId) {
    if (busy_ || !evaluator_) return false;
    busy_ = true;
    auto evaluator = evaluator_;
    auto work = [evaluator, d = dir.toStdString(), s = specDir.toStdString(), dev = deviceId.toStdString()]() {
        try {
            eval::OpRunOptions o;
            o.deviceId = dev;
            auto report = eval::OpRunner(*evaluator).run(eval::OpProject::open(d), eval::OpSpec::loadDirectory(s), o);
            return std::make_pair(QString::fromStdString(report.toText()), report.pass());
        } catch (const std::exception& e) {
            return std::make_pair(QStringLiteral("error: ") + QString::fromStdString(e.what()), false);
        }
    };
    auto* watcher = new QFutureWatcher<std::pair<QString, bool>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher]() {
        const auto result = watcher->result();
        watcher->deleteLater();
        busy_ = false;
        emit finished(result.first, result.second);
    });
    watcher->setFuture(QtConcurrent::run(work));
    return true;
}

} // namespace sage::ui
