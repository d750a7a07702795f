#include "ui/MainWindow.h"

#include "sage_agent/AgentLoop.h"
#include "sage_agent/RunStore.h"
#include "sage_eval/TraceExport.h"
#include "ui/AgentController.h"
#include "ui/AgentPanel.h"
#include "ui/CandidateDiffView.h"
#include "ui/DiagnosticsModel.h"
#include "ui/DiagnosticsPanel.h"
#include "ui/EvaluationPresenter.h"
#include "ui/EvaluationService.h"
#include "ui/FindReplaceBar.h"
#include "ui/KernelEditor.h"
#include "ui/MemoryBrowser.h"
#include "ui/MemoryService.h"
#include "ui/OpProjectService.h"
#include "sage_eval/OpProject.h"
#include "ui/SettingsDialog.h"
#include "ui/TaskTreeModel.h"
#include "ui/TimelinePanel.h"
#include "ui/VerificationPanel.h"

#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDesktopServices>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QTreeView>
#include <QUrl>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrent>

#include <fstream>
#include <utility>

namespace sage::ui {

MainWindow::MainWindow(QWidget* parent) : MainWindow(MainWindowOptions{}, parent) {}

MainWindow::MainWindow(const MainWindowOptions& options, QWidget* parent)
    : QMainWindow(parent), options_(options), settings_(WorkbenchSettings::load()) {
    setWindowTitle(tr("SAGE Kernel Workbench"));
    setObjectName(QStringLiteral("SageMainWindow"));
    setDockOptions(AnimatedDocks | AllowTabbedDocks | AllowNestedDocks);
    evaluator_ = options_.evaluator;
    if (!evaluator_) {
        try {
            evaluator_ = std::make_shared<const eval::Evaluator>(eval::Evaluator::fromEnvironment());
        } catch (const std::exception& e) {
            evaluatorError_ = QString::fromStdString(e.what());
        }
    }
    std::vector<std::string> dirs;
    for (const auto& d : options_.taskDirs) dirs.push_back(d.toStdString());
    if (dirs.empty() && evaluator_) dirs.push_back(evaluator_->paths().tasksDir());
    tasks_ = eval::TaskSet::load(dirs);

    memory_ = new MemoryService(this);
    if (evaluator_) {
        service_ = new EvaluationService(evaluator_, this);
        baselineService_ = new EvaluationService(evaluator_, this);
        agent_ = new AgentController(evaluator_, this);
        opService_ = new OpProjectService(evaluator_, this);
        connect(opService_, &OpProjectService::finished, this, [this](const QString& report, bool pass) {
            opReport_->setPlainText(report);
            showPanel(QStringLiteral("op"));
            setMessage(pass ? tr("Op project: PASS") : tr("Op project: FAIL (see the Op project panel)"), 15000);
            emit opProjectFinished(pass);
        });
    }
    buildPanels();
    buildActions();
    buildDefaultLayout();
    resize(1600, 1000);
    defaultState_ = saveState();
    if (options_.restoreLayout) {
        QSettings s;
        restoreGeometry(s.value(QStringLiteral("window/geometry")).toByteArray());
        restoreState(s.value(QStringLiteral("window/state")).toByteArray());
    }

    QString seed = options_.seedFile;
    if (seed.isEmpty() && evaluator_)
        seed = QString::fromStdString(evaluator_->paths().resources) + QStringLiteral("/memory/seed.jsonl");
    connect(memory_, &MemoryService::opened, this, [this](bool ok, const QString& message) {
        memoryState_ = ok ? MemoryState::Open : MemoryState::Failed;
        setMessage(ok ? tr("Memory: %1").arg(message) : tr("Memory could not be opened: %1").arg(message), 10000);
        if (ok && task_) loadRuns(QString::fromStdString(task_->name));
        if (auto start = std::exchange(deferredAgentStart_, std::nullopt)) startAgent(start->first, start->second);
    });
    memory_->open(dbPath(), seed);

    if (!evaluatorError_.isEmpty())
        setMessage(tr("The evaluation pipeline is unavailable: %1").arg(evaluatorError_), 0);
    else if (!tasks_.errors.empty())
        setMessage(tr("%n task folder(s) were rejected: %1", nullptr, int(tasks_.errors.size()))
                       .arg(QString::fromStdString(tasks_.errors.front())), 15000);
    else
        statusBar()->showMessage(tr("Ready"));
}

MainWindow::~MainWindow() {
    if (service_) service_->cancel();
    if (baselineService_) baselineService_->cancel();
}

QString MainWindow::dbPath() const {
    return options_.dbPath.isEmpty() ? settings_.effectiveDbPath() : options_.dbPath;
}

QDockWidget* MainWindow::addDock(const QString& name, const QString& title, QWidget* widget, Qt::DockWidgetArea area) {
    auto* d = new QDockWidget(title, this);
    d->setObjectName(QStringLiteral("dock-") + name);
    d->setWidget(widget);
    addDockWidget(area, d);
    docks_[name] = d;
    return d;
}

QDockWidget* MainWindow::dock(const QString& name) const {
    auto it = docks_.find(name);
    return it == docks_.end() ? nullptr : it->second;
}

void MainWindow::buildPanels() {
    // Centre: editor (with find bar) and the candidate diff.
    auto* editorPage = new QWidget(this);
    auto* editorLayout = new QVBoxLayout(editorPage);
    editorLayout->setContentsMargins(0, 0, 0, 0);
    editorLayout->setSpacing(0);
    editor_ = new KernelEditor(editorPage);
    editor_->setObjectName(QStringLiteral("kernelEditor"));
    findBar_ = new FindReplaceBar(editor_, editorPage);
    editorLayout->addWidget(findBar_);
    editorLayout->addWidget(editor_, 1);
    diffView_ = new CandidateDiffView(this);
    centralTabs_ = new QTabWidget(this);
    centralTabs_->setDocumentMode(true);
    centralTabs_->addTab(editorPage, tr("Kernel"));
    centralTabs_->addTab(diffView_, tr("Diff"));
    setCentralWidget(centralTabs_);

    taskModel_ = new TaskTreeModel(this);
    taskModel_->setTasks(tasks_);
    taskView_ = new QTreeView(this);
    taskView_->setObjectName(QStringLiteral("taskTree"));
    taskView_->setModel(taskModel_);
    taskView_->setUniformRowHeights(true);
    taskView_->expandAll();
    taskView_->header()->setStretchLastSection(true);
    taskView_->setColumnWidth(TaskTreeModel::NameColumn, 150);
    addDock(QStringLiteral("tasks"), tr("Tasks"), taskView_, Qt::LeftDockWidgetArea);

    diagnosticsModel_ = new DiagnosticsModel(this);
    diagnosticsPanel_ = new DiagnosticsPanel(diagnosticsModel_, this);
    addDock(QStringLiteral("diagnostics"), tr("Diagnostics"), diagnosticsPanel_, Qt::BottomDockWidgetArea);
    opReport_ = new QPlainTextEdit(this);
    opReport_->setObjectName(QStringLiteral("opProjectReport"));
    opReport_->setReadOnly(true);
    opReport_->setPlaceholderText(tr("File → Open op project… runs an op directory (op_host + op_kernel) from its own "
                                     "host tiling and verifies it against its spec."));
    addDock(QStringLiteral("op"), tr("Op project"), opReport_, Qt::BottomDockWidgetArea);
    verificationPanel_ = new VerificationPanel(this);
    addDock(QStringLiteral("verification"), tr("Verification"), verificationPanel_, Qt::BottomDockWidgetArea);
    timelinePanel_ = new TimelinePanel(this);
    addDock(QStringLiteral("timeline"), tr("Timeline"), timelinePanel_, Qt::BottomDockWidgetArea);
    if (agent_) {
        agentPanel_ = new AgentPanel(agent_, this);
        agentPanel_->setDefaults(settings_.policy, settings_.budget, settings_.memoryMode, settings_.includePending);
        addDock(QStringLiteral("agent"), tr("Agent"), agentPanel_, Qt::RightDockWidgetArea);
    }
    memoryBrowser_ = new MemoryBrowser(memory_, this);
    addDock(QStringLiteral("memory"), tr("Memory"), memoryBrowser_, Qt::RightDockWidgetArea);
    presenter_ = new EvaluationPresenter(editor_, diagnosticsModel_, diagnosticsPanel_, verificationPanel_,
                                         timelinePanel_, this);
    presenter_->clear();

    connect(diagnosticsPanel_, &DiagnosticsPanel::lineActivated, this, [this](int line, int column) {
        centralTabs_->setCurrentIndex(0);
        editor_->goToLine(line, std::max(1, column));
    });
    connect(timelinePanel_, &TimelinePanel::lineActivated, this, [this](int line) {
        centralTabs_->setCurrentIndex(0);
        editor_->goToLine(line);
        setMessage(tr("Line %1: %2 cycles in the last profile").arg(line).arg(editor_->heatCycles(line)));
    });
    connect(timelinePanel_, &TimelinePanel::baselineFromCurrentRequested, this, [this]() {
        if (auto r = presenter_->current(); r && r->evaluation && r->evaluation->profile.present)
            timelinePanel_->setBaseline(r->evaluation, tr("revision %1").arg(r->revision));
        else
            setMessage(tr("Evaluate (F5) first: there is no profile to keep as the baseline."));
    });
    connect(timelinePanel_, &TimelinePanel::baselineFromTaskRequested, this, [this]() {
        if (!task_ || !baselineService_) return;
        EvaluationJob job;
        job.task = task_;
        job.source = QString::fromStdString(task_->baselineSource);
        job.kernelName = QStringLiteral("baseline.cpp");
        job.deviceId = device_->currentData().toString();
        job.seeds = 1;
        job.timeoutSeconds = settings_.evalTimeoutSeconds;
        baselineService_->start(job);
        setMessage(tr("Evaluating the task's baseline.cpp…"));
    });
    if (baselineService_)
        connect(baselineService_, &EvaluationService::finished, this, [this](EvaluationResultPtr r) {
            if (!r->ok()) return setMessage(tr("Baseline evaluation failed: %1").arg(r->error));
            timelinePanel_->setBaseline(r->evaluation, QStringLiteral("baseline.cpp"));
            timelinePanel_->showTab(QStringLiteral("baseline"));
            setMessage(tr("Baseline: %1 cycles").arg(r->evaluation->profile.totalCycles));
        });
    if (service_) {
        connect(service_, &EvaluationService::finished, this, &MainWindow::onEvaluationFinished);
        connect(service_, &EvaluationService::busyChanged, this, &MainWindow::onBusyChanged);
    }
    connect(taskView_, &QTreeView::activated, this, &MainWindow::onTaskActivated);
    connect(taskView_, &QTreeView::clicked, this, [this](const QModelIndex& i) {
        const auto kind = TaskTreeModel::NodeKind(i.data(TaskTreeModel::KindRole).toInt());
        if (kind == TaskTreeModel::NodeKind::Run || kind == TaskTreeModel::NodeKind::Iteration) onTaskActivated(i);
    });
    connect(memoryBrowser_, &MemoryBrowser::message, this, [this](const QString& m) { setMessage(m); });
    connect(memoryBrowser_, &MemoryBrowser::pendingCountChanged, this, [this](int pending) {
        dock(QStringLiteral("memory"))->setWindowTitle(pending ? tr("Memory (%1 to review)").arg(pending) : tr("Memory"));
    });
    connect(memoryBrowser_, &MemoryBrowser::iterationLinkActivated, this, [this](qint64 run, int iteration) {
        showPanel(QStringLiteral("agent"));
        loadIterations(run, iteration);
    });
    connect(presenter_, &EvaluationPresenter::staleChanged, this, [this](bool stale) {
        resultLabel_->setText(stale ? tr("edited since the last evaluation") : presenter_->statusLine());
    });
    if (agentPanel_) {
        connect(agentPanel_, &AgentPanel::startRequested, this, [this](bool paused) { startAgent(paused, paused); });
        connect(agentPanel_, &AgentPanel::submitEditRequested, this, [this]() {
            if (agent_->submitEdit(editor_->text())) {
                agent_->resume();
                setMessage(tr("The agent continues from your edit."));
            } else {
                setMessage(tr("The agent is not paused: pause it first."));
            }
        });
        connect(agentPanel_, &AgentPanel::iterationSelected, this, &MainWindow::onIterationSelected);
        connect(agentPanel_, &AgentPanel::experienceActivated, this, [this](qint64 id) {
            showPanel(QStringLiteral("memory"));
            memoryBrowser_->selectExperience(id);
        });
        connect(agentPanel_, &AgentPanel::settingsRequested, this, &MainWindow::openSettings);
        connect(agentPanel_, &AgentPanel::message, this, [this](const QString& m) { setMessage(m); });
        connect(agentPanel_, &AgentPanel::runFinished, this, [this](qint64) {
            memory_->refresh();
            if (task_) loadRuns(QString::fromStdString(task_->name));
        });
        connect(agent_, &AgentController::eventArrived, this, [this](const AgentEventPtr& e) {
            if (e->type == agent::AgentEventType::MemoryUpdated) memory_->refresh();
            if (e->type == agent::AgentEventType::Paused && stepWhenPaused_) {
                stepWhenPaused_ = false;
                agent_->step();
            }
        });
    }
}

void MainWindow::buildDefaultLayout() {
    splitDockWidget(dock(QStringLiteral("diagnostics")), dock(QStringLiteral("timeline")), Qt::Horizontal);
    tabifyDockWidget(dock(QStringLiteral("diagnostics")), dock(QStringLiteral("verification")));
    dock(QStringLiteral("diagnostics"))->raise();
    if (auto* a = dock(QStringLiteral("agent"))) {
        tabifyDockWidget(a, dock(QStringLiteral("memory")));
        a->raise();
    }
    resizeDocks({dock(QStringLiteral("tasks"))}, {200}, Qt::Horizontal);
    resizeDocks({dock(QStringLiteral("diagnostics")), dock(QStringLiteral("timeline"))}, {560, 900}, Qt::Horizontal);
    resizeDocks({dock(QStringLiteral("diagnostics"))}, {380}, Qt::Vertical);
    if (auto* a = dock(QStringLiteral("agent"))) resizeDocks({a}, {430}, Qt::Horizontal);
}

void MainWindow::restoreDefaultLayout() {
    for (auto& [_, d] : docks_) {
        d->setFloating(false);
        d->show();
    }
    restoreState(defaultState_);
    dock(QStringLiteral("diagnostics"))->raise();
    if (auto* a = dock(QStringLiteral("agent"))) a->raise();
}

void MainWindow::showPanel(const QString& name) {
    if (name == QLatin1String("diff")) return centralTabs_->setCurrentIndex(1);
    if (name == QLatin1String("editor")) return centralTabs_->setCurrentIndex(0);
    if (auto* d = dock(name)) {
        d->show();
        d->raise();
    }
}

void MainWindow::buildActions() {
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
    file->addAction(tr("&Save kernel as…"), this, [this]() {
        const QString f = QFileDialog::getSaveFileName(this, tr("Save kernel"), QStringLiteral("kernel.cpp"), tr("C++ (*.cpp)"));
        QFile out(f);
        if (!f.isEmpty() && out.open(QIODevice::WriteOnly)) out.write(editor_->text().toUtf8());
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

    auto* edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(tr("&Find…"), findBar_, &FindReplaceBar::showFind)->setShortcut(QKeySequence::Find);
    edit->addAction(tr("&Replace…"), findBar_, &FindReplaceBar::showReplace)->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_H));
    edit->addAction(tr("Find &next"), findBar_, [this]() { findBar_->findNext(true); })->setShortcut(QKeySequence::FindNext);
    edit->addAction(tr("&Go to line…"), this, &MainWindow::goToLine)->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_G));

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
        if (task_) editor_->setSource(QString::fromStdString(task_->baselineSource));
    });

    auto* view = menuBar()->addMenu(tr("&View"));
    for (const char* name : {"tasks", "diagnostics", "verification", "timeline", "agent", "memory"})
        if (auto* d = dock(QString::fromLatin1(name))) view->addAction(d->toggleViewAction());
    view->addSeparator();
    view->addAction(tr("Candidate &diff"), this, [this]() { centralTabs_->setCurrentIndex(1); });
    view->addAction(tr("&Restore default layout"), this, &MainWindow::restoreDefaultLayout);

    auto* bar = addToolBar(tr("Main"));
    bar->setObjectName(QStringLiteral("mainToolBar"));
    bar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    bar->addAction(checkAction);
    bar->addAction(evalAction);
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
    if (!evaluator_)
        for (auto* a : {checkAction, evalAction, cancelAction}) a->setEnabled(false);
}

bool MainWindow::openTask(const QString& name) {
    const eval::Task* t = tasks_.find(name.toStdString());
    if (!t) {
        setMessage(tr("No task named %1").arg(name));
        return false;
    }
    if (service_) service_->cancel();
    task_ = std::make_shared<const eval::Task>(*t);
    candidates_.clear();
    setWindowTitle(tr("SAGE Kernel Workbench — %1").arg(name));
    editor_->setSource(QString::fromStdString(task_->baselineSource));
    presenter_->clear();
    timelinePanel_->setBaseline(nullptr, {});
    updateCandidates();
    const QModelIndex i = taskModel_->taskIndex(name);
    taskView_->setCurrentIndex(i);
    taskView_->scrollTo(i);
    loadRuns(name);
    setMessage(tr("Opened %1 (%2): %3").arg(name, QString::fromStdString(task_->category),
                                            QString::fromStdString(task_->description)), 10000);
    return true;
}

bool MainWindow::loadKernelFile(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        setMessage(tr("Cannot read %1").arg(path));
        return false;
    }
    editor_->setSource(QString::fromUtf8(f.readAll()));
    presenter_->clear();
    updateCandidates();
    setMessage(tr("Loaded %1").arg(path));
    return true;
}

quint64 MainWindow::evaluate() { return startJob(EvaluationKind::Evaluate); }
quint64 MainWindow::check() { return startJob(EvaluationKind::Compile); }

void MainWindow::cancelEvaluation() {
    if (service_ && service_->busy()) {
        service_->cancel();
        setMessage(tr("Cancelling…"));
    }
}

quint64 MainWindow::startJob(EvaluationKind kind) {
    if (!service_) {
        setMessage(tr("The evaluation pipeline is unavailable: %1").arg(evaluatorError_));
        return 0;
    }
    if (!task_) {
        setMessage(tr("Open a task first (Tasks panel)."));
        return 0;
    }
    EvaluationJob job;
    job.task = task_;
    job.source = editor_->text();
    job.revision = editor_->revision();
    job.kind = kind;
    job.deviceId = device_->currentData().toString();
    job.seeds = settings_.seeds;
    job.timeoutSeconds = settings_.evalTimeoutSeconds;
    const quint64 id = service_->start(job);
    setMessage(kind == EvaluationKind::Compile ? tr("Compiling…") : tr("Evaluating: compile → run → verify → profile…"), 0);
    return id;
}

void MainWindow::onBusyChanged(bool busy) {
    progress_->setVisible(busy);
    cancel_->setVisible(busy);
}

void MainWindow::onEvaluationFinished(const EvaluationResultPtr& r) {
    if (!r->error.isEmpty()) {
        presenter_->clear(tr("<span style='color:#c62828'>The pipeline failed: %1</span>").arg(r->error.toHtmlEscaped()));
        setMessage(tr("Evaluation failed: %1").arg(r->error), 0);
        return;
    }
    if (r->cancelled) {
        setMessage(tr("Evaluation cancelled."));
        return;
    }
    if (!task_ || r->taskName != QString::fromStdString(task_->name)) return;  // another task is open now
    presenter_->present(r, task_);
    resultLabel_->setText(presenter_->stale() ? tr("stale result (the text changed)") : presenter_->statusLine());
    setMessage(presenter_->stale() ? tr("The result is for an older text and was not applied to the editor: press F5.")
                                   : presenter_->statusLine());
    const auto& ev = *r->evaluation;
    if (!ev.compile.ok || (!ev.run.diagnostics.empty() && ev.run.status != "ok")) showPanel(QStringLiteral("diagnostics"));
    else if (r->kind == EvaluationKind::Evaluate && ev.verify.ran && !ev.verify.pass) showPanel(QStringLiteral("verification"));
    updateCandidates();
    emit evaluationPresented(r);
}

bool MainWindow::exportTrace(const QString& path) {
    auto r = presenter_->current();
    if (!r || !r->evaluation || !r->evaluation->profile.present) {
        setMessage(tr("Nothing to export: evaluate (F5) first."));
        return false;
    }
    auto ev = r->evaluation;
    const bool csv = path.endsWith(QLatin1String(".csv"), Qt::CaseInsensitive);
    auto* watcher = new QFutureWatcher<bool>(this);
    connect(watcher, &QFutureWatcher<bool>::finished, this, [this, watcher, path]() {
        setMessage(watcher->result() ? tr("Exported %1").arg(path) : tr("Could not write %1").arg(path));
        watcher->deleteLater();
    });
    watcher->setFuture(QtConcurrent::run([ev, path, csv]() {
        std::ofstream out(path.toStdString());
        if (!out) return false;
        if (csv) out << eval::opSummaryCsv(*ev);
        else out << eval::chromeTrace(*ev).dump();
        return bool(out);
    }));
    return true;
}

bool MainWindow::startAgent(bool paused, bool stepOnce) {
    if (!agent_ || !task_) {
        setMessage(tr("Open a task first."));
        return false;
    }
    if (memoryState_ == MemoryState::Opening) {
        deferredAgentStart_ = {paused, stepOnce};
        setMessage(tr("The agent starts as soon as the memory database is open…"));
        return true;
    }
    agent::AgentSettings base;
    base.device = device_->currentData().toString().toStdString();
    base.seeds = size_t(settings_.seeds);
    base.evalTimeoutSeconds = settings_.evalTimeoutSeconds;
    base.targetRooflineFraction = settings_.targetRoofline;
    base.patience = settings_.patience;
    base.llm.baseUrl = settings_.llmBaseUrl.toStdString();
    base.llm.model = settings_.llmModel.toStdString();
    base.llm.apiKeyEnv = settings_.apiKeyEnv.toStdString();
    // The engineer's kernel in the editor is where the run starts (core decides when it is not).
    const QString text = editor_->text();
    const bool fromEditor = agent::startsFromKernel(*task_, text.toStdString());
    base.llm.contextTokens = settings_.llmContextTokens;
    base.llm.maxTokens = settings_.llmMaxTokens;
    base.llm.temperature = settings_.llmTemperature;
    QString error;
    if (!agent_->start(*task_, agentPanel_->settings(base), dbPath(), paused, &error, fromEditor ? text : QString(),
                       tr("the editor"))) {
        setMessage(tr("The agent did not start: %1").arg(error), 0);
        return false;
    }
    stepWhenPaused_ = stepOnce;
    showPanel(QStringLiteral("agent"));
    return true;
}

void MainWindow::onIterationSelected(const IterationRecordPtr& record) {
    if (!record || !task_) return;
    const int index = record->index;
    candidates_[index] = record;
    const std::string& source = record->source;
    if (source.empty()) return;
    editor_->setSource(QString::fromStdString(source));
    const auto& evJson = record->evaluation;
    if (evJson.is_object()) {
        auto r = std::make_shared<EvaluationResult>();
        r->revision = editor_->revision();
        r->kind = EvaluationKind::Evaluate;
        r->taskName = QString::fromStdString(task_->name);
        r->source = QString::fromStdString(source);
        r->evaluation = std::make_shared<const eval::Evaluation>(eval::Evaluation::fromJson(evJson));
        presenter_->present(r, task_, tr("run %1, iteration %2 (stored; F5 re-runs it for the timeline)")
                                          .arg(record->runId).arg(index));
    } else {
        presenter_->clear(tr("Iteration %1 has no evaluation (%2).")
                              .arg(index).arg(QString::fromStdString(record->status)));
    }
    updateCandidates();
    // Not while the loop runs (it would compete for the cores): re-run the candidate for its timeline.
    // The compile is cached from the agent's own evaluation.
    if (service_ && agent_ && (!agent_->active() || agent_->state() == AgentController::State::Paused) && evJson.is_object())
        evaluate();
    // The diff: this iteration against its parent (or the task's baseline for the draft).
    const int parent = record->parent;
    NamedSource right{tr("iteration %1").arg(index), QString::fromStdString(source)};
    auto it = candidates_.find(parent);
    if (parent >= 0 && it != candidates_.end())
        diffView_->compare({tr("iteration %1").arg(parent), QString::fromStdString(it->second->source)}, right);
    else
        diffView_->compare({QStringLiteral("baseline.cpp"), QString::fromStdString(task_->baselineSource)}, right);
}

void MainWindow::updateCandidates() {
    std::vector<NamedSource> list;
    list.push_back({tr("editor"), editor_->text()});
    if (task_) {
        list.push_back({QStringLiteral("baseline.cpp"), QString::fromStdString(task_->baselineSource)});
        if (!task_->tunedSource.empty()) list.push_back({QStringLiteral("tuned.cpp"), QString::fromStdString(task_->tunedSource)});
    }
    for (const auto& [index, r] : candidates_)
        list.push_back({tr("iteration %1").arg(index), QString::fromStdString(r->source)});
    diffView_->setCandidates(list);
}

void MainWindow::onTaskActivated(const QModelIndex& index) {
    const auto kind = TaskTreeModel::NodeKind(index.data(TaskTreeModel::KindRole).toInt());
    const QString task = index.data(TaskTreeModel::TaskNameRole).toString();
    if (kind == TaskTreeModel::NodeKind::Category) return;
    if (kind == TaskTreeModel::NodeKind::Task) {
        openTask(task);
        return;
    }
    if (!task_ || QString::fromStdString(task_->name) != task) openTask(task);
    const qint64 run = index.data(TaskTreeModel::RunIdRole).toLongLong();
    const int iteration = kind == TaskTreeModel::NodeKind::Iteration ? index.data(TaskTreeModel::IterationRole).toInt() : -1;
    showPanel(QStringLiteral("agent"));
    loadIterations(run, iteration);
}

void MainWindow::loadRuns(const QString& task) {
    if (!memory_->isOpen()) return;
    const std::string name = task.toStdString();
    memory_->run<std::vector<RunRow>>(
        [name](memory::ExperienceStore& store) {
            agent::RunStore runs(store.sharedDatabase());
            std::vector<RunRow> rows;
            for (const auto& r : runs.runs(name))
                rows.push_back({r.id, QString::fromStdString(r.status), QString::fromStdString(r.policy),
                                QString::fromStdString(r.memoryMode), QString::fromStdString(r.startedAt), r.bestIteration, 0});
            return rows;
        },
        this, [this, task](std::vector<RunRow> rows) { taskModel_->setRuns(task, rows); });
}

void MainWindow::loadIterations(qint64 runId, int select) {
    memory_->run<std::vector<IterationRecordPtr>>(
        [runId](memory::ExperienceStore& store) {
            agent::RunStore runs(store.sharedDatabase());
            std::vector<IterationRecordPtr> out;
            for (auto& it : runs.iterations(runId)) out.push_back(std::make_shared<const agent::IterationRecord>(std::move(it)));
            return out;
        },
        this, [this, runId, select](std::vector<IterationRecordPtr> records) {
            std::vector<IterationRow> rows;
            for (const auto& r : records) {
                candidates_[r->index] = r;
                rows.push_back({runId, r->index, QString::fromStdString(r->stage), QString::fromStdString(r->origin),
                                QString::fromStdString(r->status), QString::fromStdString(r->move), r->correct,
                                quint64(r->cycles)});
            }
            taskModel_->setIterations(runId, rows);
            if (agentPanel_) {
                agentPanel_->showRecords(runId, records);
                if (select >= 0) agentPanel_->selectIteration(select);
            }
            updateCandidates();
        });
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
    if (dialog.exec() != QDialog::Accepted) return;
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

void MainWindow::setMessage(const QString& text, int ms) { statusBar()->showMessage(text, ms); }

void MainWindow::closeEvent(QCloseEvent* event) {
    if (options_.restoreLayout) {
        QSettings s;
        s.setValue(QStringLiteral("window/geometry"), saveGeometry());
        s.setValue(QStringLiteral("window/state"), saveState());
    }
    if (agent_ && agent_->active()) agent_->stop();
    QMainWindow::closeEvent(event);
}

bool MainWindow::openOpProject(const QString& dir) {
    if (!opService_) return false;
    eval::OpProject project;
    try {
        project = eval::OpProject::open(dir.toStdString());
    } catch (const std::exception& e) {
        opReport_->setPlainText(QString::fromStdString(e.what()));
        showPanel(QStringLiteral("op"));
        return false;
    }
    loadKernelFile(QString::fromStdString(project.kernelFile));
    const QString spec = OpProjectService::specFor(dir, QString::fromStdString(evaluator_->paths().resources));
    if (spec.isEmpty()) {
        opReport_->setPlainText(tr("No spec for op '%1': write one with `sage op init %2`, or add resources/op-specs/<category>/%1.")
                                    .arg(QString::fromStdString(project.name), dir));
        showPanel(QStringLiteral("op"));
        return false;
    }
    if (!opService_->start(dir, spec, device_->currentData().toString())) {
        setMessage(tr("An op project is still running"));
        return false;
    }
    opReport_->setPlainText(tr("Running %1 with spec %2: host tiling, compile, run, verify…").arg(dir, spec));
    showPanel(QStringLiteral("op"));
    return true;
}

} // namespace sage::ui

