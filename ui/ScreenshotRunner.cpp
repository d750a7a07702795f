#include "ui/ScreenshotRunner.h"

#include "ui/AgentController.h"
#include "ui/AgentPanel.h"
#include "ui/EvaluationPresenter.h"
#include "ui/EvaluationService.h"
#include "ui/KernelEditor.h"
#include "ui/ExperienceTableModel.h"
#include "ui/MainWindow.h"
#include "ui/MemoryBrowser.h"
#include "ui/MemoryService.h"
#include "ui/TimelinePanel.h"
#include "ui/TimelinePlot.h"

#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QPixmap>
#include <QTableView>
#include <QTimer>

#include <cstdio>

namespace sage::ui {

ScreenshotRunner::ScreenshotRunner(MainWindow* window, ScreenshotRequest request, QObject* parent)
    : QObject(parent), window_(window), request_(std::move(request)) {}

void ScreenshotRunner::fail(const QString& why) {
    if (done_) return;
    done_ = true;
    std::fprintf(stderr, "sage-workbench --screenshot: %s\n", qPrintable(why));
    QApplication::exit(1);
}

void ScreenshotRunner::start() {
    QTimer::singleShot(request_.timeoutSeconds * 1000, this, [this]() { fail(QStringLiteral("timed out")); });
    if (!window_->openTask(request_.task)) return fail(QStringLiteral("no task named %1").arg(request_.task));
    if (!request_.kernel.isEmpty() && !window_->loadKernelFile(request_.kernel))
        return fail(QStringLiteral("cannot read %1").arg(request_.kernel));
    if (!window_->evaluationService()) return fail(QStringLiteral("the evaluation pipeline is unavailable"));
    connect(window_, &MainWindow::evaluationPresented, this, [this]() {
        if (evaluated_) return;
        evaluated_ = true;
        afterEvaluation();
    });
    connect(window_->evaluationService(), &EvaluationService::finished, this, [this](EvaluationResultPtr r) {
        if (!r->ok()) fail(QStringLiteral("evaluation failed: %1").arg(r->error));
    });
    if (!window_->evaluate()) fail(QStringLiteral("could not start the evaluation"));
}

void ScreenshotRunner::afterEvaluation() {
    const QString panel = request_.panel;
    if (panel == QLatin1String("agent")) {
        auto* agent = window_->agentController();
        if (!agent) return fail(QStringLiteral("this build has no agent"));
        connect(agent, &AgentController::eventArrived, this, [this, agent](const AgentEventPtr& e) {
            using T = agent::AgentEventType;
            if (e->type == T::IterationFinished && e->iteration + 1 >= request_.agentIterations) agent->pause();
            if (e->type == T::Paused || e->type == T::RunFinished) {
                // Mid-run: the last iteration is selected; re-run it for its timeline, then grab.
                arrange();
                connect(window_, &MainWindow::evaluationPresented, this,
                        [this]() { QTimer::singleShot(600, this, &ScreenshotRunner::grabAndQuit); });
                if (!window_->evaluate()) QTimer::singleShot(600, this, &ScreenshotRunner::grabAndQuit);
            }
        });
        window_->showPanel(QStringLiteral("agent"));
        if (!window_->startAgent(false)) fail(QStringLiteral("the agent did not start"));
        return;
    }
    arrange();
    QTimer::singleShot(800, this, &ScreenshotRunner::grabAndQuit);
}

void ScreenshotRunner::arrange() {
    const QString panel = request_.panel;
    if (panel == QLatin1String("memory")) {
        window_->showPanel(QStringLiteral("memory"));
        auto* browser = window_->memoryBrowser();
        // The entries that learned the most first; select the top one (it has a Q history).
        browser->showPendingQueue(false);
        browser->view()->sortByColumn(ExperienceTableModel::QColumn, Qt::DescendingOrder);
        const QModelIndex top = browser->view()->model()->index(0, 0);
        if (top.isValid()) browser->selectExperience(top.data(ExperienceTableModel::IdRole).toLongLong());
        QTimer::singleShot(100, this, [this]() {
            if (auto* d = window_->dock(QStringLiteral("memory")))
                window_->resizeDocks({d}, {int(window_->width() * 0.66)}, Qt::Horizontal);
            window_->resizeDocks({window_->dock(QStringLiteral("diagnostics"))}, {int(window_->height() * 0.22)},
                                 Qt::Vertical);
        });
    } else if (panel == QLatin1String("agent")) {
        window_->showPanel(QStringLiteral("agent"));
        if (auto* tasks = window_->dock(QStringLiteral("tasks"))) tasks->hide();
        window_->agentPanel()->showTab(QStringLiteral("experiences"));
        window_->showPanel(QStringLiteral("diff"));
        QTimer::singleShot(100, this, [this]() {  // after the layout has absorbed the hidden dock
            if (auto* d = window_->dock(QStringLiteral("agent")))
                window_->resizeDocks({d}, {int(window_->width() * 0.44)}, Qt::Horizontal);
            window_->resizeDocks({window_->dock(QStringLiteral("diagnostics")), window_->dock(QStringLiteral("timeline"))},
                                 {int(window_->width() * 0.3), int(window_->width() * 0.7)}, Qt::Horizontal);
        });
    } else if (panel == QLatin1String("verification")) {
        window_->showPanel(QStringLiteral("verification"));
        if (auto* d = window_->dock(QStringLiteral("verification"))) {
            window_->resizeDocks({d}, {int(window_->height() * 0.5)}, Qt::Vertical);
            window_->resizeDocks({d, window_->dock(QStringLiteral("timeline"))},
                                 {int(window_->width() * 0.66), int(window_->width() * 0.22)}, Qt::Horizontal);
        }
    } else if (panel == QLatin1String("timeline")) {
        arrangeTimeline();
    } else if (!panel.isEmpty() && panel != QLatin1String("main")) {
        window_->showPanel(panel);
    } else {
        window_->showPanel(QStringLiteral("diagnostics"));
        window_->showPanel(QStringLiteral("timeline"));
        // Scroll the editor to the first diagnostic, or else to the hottest lines (their heat marks).
        auto r = window_->presenter()->current();
        int line = 0;
        if (r && r->evaluation) {
            for (const auto& d : r->evaluation->compile.diagnostics)
                if (d.line > 0 && !line) line = d.line;
            if (!line && !r->evaluation->profile.lines.empty()) line = r->evaluation->profile.lines.front().line - 10;
        }
        if (line > 0) window_->editor()->setFirstVisibleLine(std::max(0, line - 3));
    }
}

void ScreenshotRunner::arrangeTimeline() {
    // The timeline large, and zoomed to its first synchronisation links when it has any, so that
    // the flag arrows can be read.
    window_->showPanel(QStringLiteral("timeline"));
    if (auto* d = window_->dock(QStringLiteral("timeline"))) {
        window_->resizeDocks({d}, {int(window_->height() * 0.55)}, Qt::Vertical);
        window_->resizeDocks({window_->dock(QStringLiteral("diagnostics")), d},
                             {int(window_->width() * 0.2), int(window_->width() * 0.6)}, Qt::Horizontal);
    }
    TimelinePlot* plot = window_->timelinePanel()->plot();
    const TimelineData* data = plot->timeline();
    if (!data || data->flagLinkCount() == 0) return;
    size_t flags = 0;
    uint64_t until = 0;
    for (const auto& link : data->links())
        if (!link.queue && ++flags <= 10) until = std::max(until, link.hi());
    plot->xAxis->setRange(0, double(until) * 1.15);
    plot->replot(QCustomPlot::rpQueuedReplot);
}

void ScreenshotRunner::grabAndQuit() {
    if (done_) return;
    // Let queued memory queries and replots land first.
    window_->memoryService()->refresh();
    QTimer::singleShot(700, this, [this]() {
        if (done_) return;
        const QPixmap shot = window_->grab();
        QDir().mkpath(QFileInfo(request_.file).absolutePath());
        if (!shot.save(request_.file, "PNG")) return fail(QStringLiteral("cannot write %1").arg(request_.file));
        done_ = true;
        std::fprintf(stdout, "saved %s (%dx%d)\n", qPrintable(request_.file), shot.width(), shot.height());
        if (auto* agent = window_->agentController()) agent->stop();
        QApplication::exit(0);
    });
}

} // namespace sage::ui
