// Shared set-up of the workbench's widget tests: an isolated environment (temporary cache,
// settings and data folders; the runner of this build), the real evaluation pipeline, and a
// main window on the test tasks of tests/eval/data.
#pragma once

#include "sage_eval/Evaluator.h"
#include "ui/MainWindow.h"

#include <QCoreApplication>
#include <QFile>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>
#include <string>

namespace uitest {

inline QString evalData(const QString& rel) { return QStringLiteral(SAGE_EVAL_TEST_DATA_DIR "/") + rel; }

inline QString readFile(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) qFatal("missing test file %s", qPrintable(path));
    return QString::fromUtf8(f.readAll());
}

inline int lineOf(const QString& text, const QString& needle) {
    const int pos = text.indexOf(needle);
    return pos < 0 ? -1 : int(text.left(pos).count(QLatin1Char('\n'))) + 1;
}

// Call once, before any window: every path the workbench writes goes under `root`.
inline void isolate(const QTemporaryDir& root) {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("SAGE-test"));
    QCoreApplication::setApplicationName(QStringLiteral("sage-workbench-test"));
    qputenv("XDG_CONFIG_HOME", (root.path() + "/config").toLocal8Bit());
    qputenv("XDG_DATA_HOME", (root.path() + "/data").toLocal8Bit());
    qputenv("SAGE_BIN_DIR", SAGE_TEST_BIN_DIR);
    qputenv("SAGE_CACHE_DIR", (root.path() + "/cache").toLocal8Bit());
    qunsetenv("SAGE_MEMORY_DB");
}

inline std::shared_ptr<const sage::eval::Evaluator> evaluator() {
    return std::make_shared<const sage::eval::Evaluator>(sage::eval::Evaluator::fromEnvironment());
}

inline std::unique_ptr<sage::ui::MainWindow> window(const QTemporaryDir& root,
                                                    std::shared_ptr<const sage::eval::Evaluator> ev,
                                                    const QString& dbName = QStringLiteral("memory.db"),
                                                    bool restoreLayout = false) {
    sage::ui::MainWindowOptions o;
    o.taskDirs = {evalData(QStringLiteral("tasks"))};
    o.dbPath = root.path() + "/" + dbName;
    o.seedFile = QStringLiteral(SAGE_SOURCE_DIR "/resources/memory/seed.jsonl");
    o.restoreLayout = restoreLayout;
    o.evaluator = std::move(ev);
    auto w = std::make_unique<sage::ui::MainWindow>(o);
    // No modal question in a test: edits are discarded unless a test answers otherwise.
    w->setUnsavedEditsPrompt([](const QString&) { return QMessageBox::Discard; });
    w->resize(1500, 950);
    w->show();
    return w;
}

} // namespace uitest
