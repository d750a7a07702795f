// The main window's menus, toolbar and status bar, and the actions behind them that are not
// panels' own: saving the kernel, go to line, settings. Split from MainWindow.cpp by
// responsibility; the class is declared in MainWindow.h.
#include "ui/MainWindow.h"

#include "ui/AgentPanel.h"
#include "ui/ApiKeyStore.h"
#include "ui/CandidateDiffView.h"
#include "ui/DiagnosticsPanel.h"
#include "ui/FindReplaceBar.h"
#include "ui/KernelEditor.h"
#include "ui/MemoryService.h"
#include "ui/SettingsDialog.h"
#include "sage_toolchain/DeviceCatalog.h"

#include <QComboBox>
#include <QDesktopServices>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QToolBar>
#include <QToolButton>
#include <QUrl>

namespace sage::ui {

void MainWindow::buildActions() {
    QAction* exportAction = buildFileMenu();
    buildEditMenu();
    const BuildActions build = buildBuildMenu();
    buildViewMenu();
    buildToolBar(build, exportAction);
    buildStatusBar();
    if (!evaluator_)
        for (auto* a : {build.check, build.evaluate, build.cancel}) a->setEnabled(false);
}

QAction* MainWindow::buildFileMenu() {
    auto* file = menuBar()->addMenu(tr("&File"));
    auto* openKernel = file->addAction(tr("&Open kernel…"), this, [this]() {
        const QString f = QFileDialog::getOpenFileName(this, tr("Open kernel"), QString(), tr("C++ (*.cpp *.cc *.h);;All (*)"));
        if (!f.isEmpty()) loadKernelFile(f);
    });
    openKernel->setShortcut(QKeySequence::Open);
    file->addAction(tr("Open op &project…"), this, [this]() {
        const QString d = QFileDialog::getExistingDirectory(this, tr("Open op project (the folder with op_host/ and op_kernel/)"));
        if (!d.isEmpty()) openOpProject(d);
    });
    auto* save = file->addAction(tr("&Save kernel"), this, [this]() { saveKernel(); });
    save->setShortcut(QKeySequence::Save);
    save->setToolTip(tr("To the file the editor tracks, or else to the open task's draft (loaded when the task opens)"));
    file->addAction(tr("Save kernel &as…"), this, [this]() {
        const QString f = QFileDialog::getSaveFileName(this, tr("Save kernel"), QStringLiteral("kernel.cpp"), tr("C++ (*.cpp)"));
        if (!f.isEmpty()) saveKernel(f);
    })->setShortcut(QKeySequence::SaveAs);
    file->addAction(tr("Open in e&xternal editor"), this, [this]() {
        static QTemporaryDir dir;
        const QString f = dir.filePath(QStringLiteral("kernel.cpp"));
        QFile out(f);
        if (out.open(QIODevice::WriteOnly)) out.write(editor_->text().toUtf8());
        out.close();
        QDesktopServices::openUrl(QUrl::fromLocalFile(f));
        setMessage(tr("Wrote %1; reload it with File → Open kernel").arg(f));
    });
    auto* exportAction = file->addAction(tr("&Export trace…"), this, [this]() {
        const QString f = QFileDialog::getSaveFileName(this, tr("Export trace"), QStringLiteral("trace.json"),
                                                       tr("Chrome trace (*.json);;Op summary CSV (*.csv)"));
        if (!f.isEmpty()) exportTrace(f);
    });
    exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    file->addSeparator();
    file->addAction(tr("&Settings…"), this, &MainWindow::openSettings)->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Comma));
    file->addSeparator();
    file->addAction(tr("&Quit"), this, &QWidget::close)->setShortcut(QKeySequence::Quit);
    return exportAction;
}

void MainWindow::buildEditMenu() {
    auto* edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(tr("&Find…"), findBar_, &FindReplaceBar::showFind)->setShortcut(QKeySequence::Find);
    edit->addAction(tr("&Replace…"), findBar_, &FindReplaceBar::showReplace)->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_H));
    edit->addAction(tr("Find &next"), findBar_, [this]() { findBar_->findNext(true); })->setShortcut(QKeySequence::FindNext);
    edit->addAction(tr("&Go to line…"), this, &MainWindow::goToLine)->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_G));
}

MainWindow::BuildActions MainWindow::buildBuildMenu() {
    auto* build = menuBar()->addMenu(tr("&Build"));
    auto* checkAction = build->addAction(tr("&Check / compile"), this, [this]() { check(); });
    checkAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_B));
    auto* evalAction = build->addAction(tr("&Evaluate"), this, [this]() { evaluate(); });
    evalAction->setShortcut(QKeySequence(Qt::Key_F5));
    evalAction->setToolTip(tr("Compile, run, verify and profile (F5)"));
    auto* cancelAction = build->addAction(tr("&Cancel evaluation"), this, &MainWindow::cancelEvaluation);
    cancelAction->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F5));
    build->addSeparator();
    build->addAction(tr("Next diagnostic"), diagnosticsPanel_, &DiagnosticsPanel::next)->setShortcut(QKeySequence(Qt::Key_F8));
    build->addAction(tr("Previous diagnostic"), diagnosticsPanel_, &DiagnosticsPanel::previous)
        ->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F8));
    build->addAction(tr("Reload task baseline"), this, [this]() {
        if (!task_ || !confirmUnsavedEdits(tr("reload baseline.cpp"))) return;
        showSource(QString::fromStdString(task_->baselineSource));
    });
    return {checkAction, evalAction, cancelAction};
}

void MainWindow::buildViewMenu() {
    auto* view = menuBar()->addMenu(tr("&View"));
    for (const char* name : {"tasks", "diagnostics", "verification", "timeline", "agent", "memory"})
        if (auto* d = dock(QString::fromLatin1(name))) view->addAction(d->toggleViewAction());
    view->addSeparator();
    view->addAction(tr("Candidate &diff"), this, [this]() { centralTabs_->setCurrentIndex(1); });
    view->addAction(tr("&Restore default layout"), this, &MainWindow::restoreDefaultLayout);
}

// Check, Evaluate, the device selector and Export trace.
void MainWindow::buildToolBar(const BuildActions& build, QAction* exportAction) {
    auto* bar = addToolBar(tr("Main"));
    bar->setObjectName(QStringLiteral("mainToolBar"));
    bar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    bar->addAction(build.check);
    bar->addAction(build.evaluate);
    bar->addSeparator();
    bar->addWidget(new QLabel(tr(" Device "), bar));
    device_ = new QComboBox(bar);
    device_->setObjectName(QStringLiteral("deviceSelector"));
    if (evaluator_)
        for (const auto& p : evaluator_->devices().profiles())
            device_->addItem(QStringLiteral("%1 — %2").arg(QString::fromStdString(p.id), QString::fromStdString(p.name)),
                             QString::fromStdString(p.id));
    const QString wanted = settings_.device.isEmpty() ? QString::fromLatin1(toolchain::DeviceCatalog::kDefaultDevice)
                                                      : settings_.device;
    device_->setCurrentIndex(std::max(0, device_->findData(wanted)));
    bar->addWidget(device_);
    bar->addSeparator();
    bar->addAction(exportAction);
}

// The result of the last evaluation, and a progress bar with Cancel while one runs.
void MainWindow::buildStatusBar() {
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 0);
    progress_->setMaximumWidth(160);
    progress_->setMaximumHeight(16);
    progress_->hide();
    cancel_ = new QToolButton(this);
    cancel_->setText(tr("Cancel"));
    cancel_->hide();
    connect(cancel_, &QToolButton::clicked, this, &MainWindow::cancelEvaluation);
    resultLabel_ = new QLabel(this);
    statusBar()->addPermanentWidget(resultLabel_);
    statusBar()->addPermanentWidget(progress_);
    statusBar()->addPermanentWidget(cancel_);
}

void MainWindow::goToLine() {
    bool ok = false;
    const int line = QInputDialog::getInt(this, tr("Go to line"), tr("Line (1–%1):").arg(editor_->lines()),
                                          editor_->cursorLine(), 1, std::max(1, editor_->lines()), 1, &ok);
    if (ok) {
        centralTabs_->setCurrentIndex(0);
        editor_->goToLine(line);
        editor_->setFocus();
    }
}

void MainWindow::openSettings() {
    QStringList devices;
    if (evaluator_)
        for (const auto& p : evaluator_->devices().profiles()) devices << QString::fromStdString(p.id);
    SettingsDialog dialog(settings_, devices, this);
    dialog.setDatabaseInUse(memory_->isOpen() ? memory_->path() : dbPath(), !options_.dbPath.isEmpty());
    if (dialog.exec() != QDialog::Accepted) return;
    if (!dialog.newApiKey().isEmpty()) {
        keychainKey_ = dialog.newApiKey();  // this session uses it at once, whatever the keychain says
        apiKeys_->write(dialog.newApiKey());
    } else if (dialog.removeApiKey()) {
        keychainKey_ = QString();
        apiKeys_->remove();
    }
    const WorkbenchSettings old = settings_;
    settings_ = dialog.settings();
    settings_.save();
    if (!settings_.device.isEmpty()) device_->setCurrentIndex(std::max(0, device_->findData(settings_.device)));
    if (agentPanel_) agentPanel_->setDefaults(settings_.policy, settings_.budget, settings_.memoryMode, settings_.includePending);
    if (options_.dbPath.isEmpty() && old.effectiveDbPath() != settings_.effectiveDbPath()) {
        memoryState_ = MemoryState::Opening;
        memory_->open(dbPath());
    }
}

bool MainWindow::saveKernel(const QString& file) {
    QString error;
    if (!document_.save(editor_->text(), &error, file)) {
        setMessage(tr("Not saved: %1").arg(error), 0);
        return false;
    }
    updateTitle();
    setMessage(tr("Saved %1").arg(file.isEmpty() ? document_.saveTarget() : file));
    return true;
}

bool MainWindow::confirmUnsavedEdits(const QString& action) {
    if (!document_.modified(editor_->text())) return true;
    const QString where = document_.saveTarget().isEmpty() ? tr("nowhere yet") : document_.saveTarget();
    const auto answer = unsavedPrompt_ ? unsavedPrompt_(action)
                                       : QMessageBox::question(this, tr("Unsaved edits"),
                                                               tr("The kernel has edits that are not saved (Save writes %1).\n"
                                                                  "Save them before you %2?").arg(where, action),
                                                               QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel,
                                                               QMessageBox::Save);
    if (answer == QMessageBox::Save) return saveKernel();
    return answer == QMessageBox::Discard;
}

void MainWindow::updateTitle() {
    QString title = tr("SAGE Kernel Workbench");
    if (task_) title += QStringLiteral(" — ") + QString::fromStdString(task_->name);
    if (!opDir_.isEmpty()) title += tr(" — op project %1").arg(QFileInfo(opDir_).fileName());
    if (!document_.file().isEmpty()) title += QStringLiteral(" — ") + document_.file();
    if (document_.modified(editor_->text())) title += QStringLiteral(" *");
    setWindowTitle(title);
}

} // namespace sage::ui
