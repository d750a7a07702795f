// `sage-workbench --screenshot FILE [--task NAME] [--panel NAME] [--kernel FILE]`: opens the
// window on a task, evaluates it, brings the panel forward, saves a PNG of the whole window
// (QWidget::grab) and quits. For --panel agent it starts the agent with the built-in policy and
// grabs mid-run, after a few iterations, while the run is paused.
#pragma once

#include <QObject>
#include <QString>

namespace sage::ui {

class MainWindow;

struct ScreenshotRequest {
    QString file;
    QString task = QStringLiteral("add");
    QString panel = QStringLiteral("main");  // main | diagnostics | verification | timeline | agent | memory | diff
    QString kernel;                          // a kernel file to open instead of the task's baseline
    int agentIterations = 3;
    int timeoutSeconds = 600;
};

class ScreenshotRunner : public QObject {
    Q_OBJECT
public:
    ScreenshotRunner(MainWindow* window, ScreenshotRequest request, QObject* parent = nullptr);
    void start();  // exits the application (0: saved, 1: failed) when done

private:
    void afterEvaluation();
    void arrange();
    void arrangeTimeline();
    void grabAndQuit();
    void fail(const QString& why);
    MainWindow* window_;
    ScreenshotRequest request_;
    bool done_ = false;
    bool evaluated_ = false;
};

} // namespace sage::ui
