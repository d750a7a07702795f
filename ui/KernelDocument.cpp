#include "ui/KernelDocument.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QObject>
#include <QStandardPaths>

namespace sage::ui {

void KernelDocument::loaded(const QString& text, const QString& task, const QString& file) {
    saved_ = text;
    task_ = task;
    file_ = file;
}

QString KernelDocument::saveTarget() const { return file_.isEmpty() ? draftPath(task_) : file_; }

bool KernelDocument::keepAsDraft(const QString& text, QString* error) const {
    KernelDocument draft;
    draft.task_ = task_;
    return draft.save(text, error);
}

bool KernelDocument::save(const QString& text, QString* error, const QString& file) {
    const QString target = file.isEmpty() ? saveTarget() : file;
    if (target.isEmpty()) {
        if (error) *error = QObject::tr("Nothing to save to: open a task, or use File → Save kernel as…");
        return false;
    }
    if (!QDir().mkpath(QFileInfo(target).absolutePath())) {
        if (error) *error = QObject::tr("Cannot create the folder of %1: check its permissions").arg(target);
        return false;
    }
    QSaveFile out(target);  // written whole or not at all: a full disk never leaves half a kernel
    if (!out.open(QIODevice::WriteOnly) || out.write(text.toUtf8()) < 0 || !out.commit()) {
        if (error) *error = QObject::tr("Cannot write %1: %2").arg(target, out.errorString());
        return false;
    }
    saved_ = text;
    if (!file.isEmpty()) file_ = file;
    return true;
}

QString KernelDocument::draftPath(const QString& task) {
    // Task names are folder names; anything that could leave the drafts folder has no draft.
    if (task.isEmpty() || task.contains(QLatin1Char('/')) || task.contains(QLatin1Char('\\')) || task.startsWith(QLatin1Char('.')))
        return {};
    const QString base = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    return base + QStringLiteral("/drafts/") + task + QStringLiteral(".cpp");
}

QString KernelDocument::readDraft(const QString& task) {
    QFile f(draftPath(task));
    if (task.isEmpty() || !f.open(QIODevice::ReadOnly)) return {};
    return QString::fromUtf8(f.readAll());
}

} // namespace sage::ui
