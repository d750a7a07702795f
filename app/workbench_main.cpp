// `sage-workbench`: the desktop GUI.
//   sage-workbench [--task NAME] [--kernel FILE] [--db FILE] [--tasks-dir DIR]...
//   sage-workbench --screenshot FILE [--task NAME] [--panel NAME] [--kernel FILE]
//   sage-workbench --op DIR [--screenshot FILE]   (File → Open op project…)
#include "sage_config.h"
#include "ui/MainWindow.h"
#include "ui/ScreenshotRunner.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QTimer>

#include <cstdio>
#include <string>

namespace {

struct Options {
    QCommandLineOption task{"task", "Open this task (default: add).", "name", "add"};
    QCommandLineOption kernel{"kernel", "Open this kernel file instead of the task's baseline.", "file"};
    QCommandLineOption db{"db", "Memory database file or postgresql:// URL (default: $SAGE_MEMORY_DB or the settings').", "file"};
    QCommandLineOption tasksDir{"tasks-dir", "Load tasks from this folder (repeatable; default: resources/tasks).", "dir"};
    QCommandLineOption screenshot{"screenshot", "Evaluate, save a PNG of the window to FILE and exit.", "file"};
    QCommandLineOption panel{"panel", "With --screenshot: main, diagnostics, verification, timeline, agent, memory, diff.",
                             "name", "main"};
    QCommandLineOption freshLayout{"default-layout", "Ignore the saved window layout."};
    QCommandLineOption size{"size", "The window size, e.g. 1366x768, with the default layout for it (default 1600x1000).",
                            "WxH"};
    QCommandLineOption op{"op", "Open this op project (File → Open op project…); with --screenshot, the PNG is saved "
                                "when its run has finished.", "dir"};

    void addTo(QCommandLineParser& cli) {
        cli.setApplicationDescription("SAGE Kernel Workbench: edit, evaluate and tune NPU kernels with an agent.");
        cli.addHelpOption();
        cli.addVersionOption();
        cli.addOptions({task, kernel, db, tasksDir, screenshot, panel, freshLayout, size, op});
    }
};

void setNames() {
    QCoreApplication::setApplicationName("sage-workbench");
    QCoreApplication::setOrganizationName("SAGE");
    QCoreApplication::setApplicationVersion(SAGE_VERSION);
}

// --help and --version need no window system: answer them before QApplication connects to a
// display (which aborts when there is none).
void answerHelpWithoutDisplay(int argc, char** argv) {
    bool wanted = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        wanted |= a == "--help" || a == "-h" || a == "-?" || a == "--help-all" || a == "--version" || a == "-v";
    }
    if (!wanted) return;
    QCoreApplication core(argc, argv);
    setNames();
    QCommandLineParser cli;
    Options o;
    o.addTo(cli);
    cli.process(core);  // prints and exits
}

} // namespace

int main(int argc, char** argv) {
    answerHelpWithoutDisplay(argc, argv);
    QApplication app(argc, argv);
    setNames();

    QCommandLineParser cli;
    Options o;
    o.addTo(cli);
    cli.process(app);
    auto& [task, kernel, db, tasksDir, screenshot, panel, freshLayout, size, op] = o;

    sage::ui::MainWindowOptions options;
    options.taskDirs = cli.values(tasksDir);
    options.dbPath = cli.value(db);
    options.restoreLayout = !cli.isSet(screenshot) && !cli.isSet(freshLayout);
    sage::ui::MainWindow window(options);
    if (cli.isSet(size)) {
        const QStringList wh = cli.value(size).split(QLatin1Char('x'));
        const int w = wh.size() == 2 ? wh[0].toInt() : 0, h = wh.size() == 2 ? wh[1].toInt() : 0;
        if (w < 640 || h < 480) {
            std::fprintf(stderr, "sage-workbench: --size %s: give WIDTHxHEIGHT, at least 640x480 (e.g. 1366x768)\n",
                         qPrintable(cli.value(size)));
            return 2;
        }
        window.resizeWithDefaultLayout(QSize(w, h));
    }
    window.show();

    if (cli.isSet(op)) {
        window.openTask(cli.value(task));
        if (cli.isSet(screenshot)) {
            const QString file = cli.value(screenshot);
            QObject::connect(&window, &sage::ui::MainWindow::opProjectFinished, &window, [&window, file](bool) {
                // After the panels' queued replots, so the timeline is in the picture.
                QTimer::singleShot(500, &window, [&window, file]() {
                    window.grab().save(file);
                    QApplication::exit(0);
                });
            });
        }
        if (!window.openOpProject(cli.value(op)) && cli.isSet(screenshot)) {
            window.grab().save(cli.value(screenshot));
            return 1;
        }
        return QApplication::exec();
    }
    if (cli.isSet(screenshot)) {
        sage::ui::ScreenshotRequest request;
        request.file = cli.value(screenshot);
        request.task = cli.value(task);
        request.panel = cli.value(panel);
        request.kernel = cli.value(kernel);
        auto* runner = new sage::ui::ScreenshotRunner(&window, request, &window);
        runner->start();
        return QApplication::exec();
    }
    if (window.openTask(cli.value(task)) && cli.isSet(kernel)) window.loadKernelFile(cli.value(kernel));
    return QApplication::exec();
}
