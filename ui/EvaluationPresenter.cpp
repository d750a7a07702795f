#include "ui/EvaluationPresenter.h"
#include "ui/CoreText.h"

#include "ui/DiagnosticsModel.h"
#include "ui/DiagnosticsPanel.h"
#include "ui/KernelEditor.h"
#include "ui/TimelinePanel.h"
#include "ui/VerificationPanel.h"

namespace sage::ui {

EvaluationPresenter::EvaluationPresenter(KernelEditor* editor, DiagnosticsModel* diagnostics,
                                         DiagnosticsPanel* diagnosticsPanel, VerificationPanel* verification,
                                         TimelinePanel* timeline, QObject* parent)
    : QObject(parent), editor_(editor), diagnostics_(diagnostics), diagnosticsPanel_(diagnosticsPanel),
      verification_(verification), timeline_(timeline) {
    connect(editor_, &KernelEditor::revisionChanged, this, [this]() { updateStatus(); });
}

bool EvaluationPresenter::stale() const { return current_ && current_->revision != editor_->revision(); }

void EvaluationPresenter::clear(const QString& message) {
    current_.reset();
    applied_ = false;
    origin_.clear();
    diagnostics_->clear();
    diagnosticsPanel_->setStatus(message.isEmpty() ? tr("No evaluation yet: Check (Ctrl+B) or Evaluate (F5).") : message);
    verification_->clear();
    timeline_->clear();
    editor_->clearMarks();
    editor_->clearHeat();
    updateStatus();
}

void EvaluationPresenter::present(EvaluationResultPtr r, std::shared_ptr<const eval::Task> task, const QString& origin) {
    if (!r || !r->evaluation) return;
    current_ = r;
    origin_ = origin;
    const eval::Evaluation& ev = *r->evaluation;
    std::vector<toolchain::Diagnostic> all = ev.compile.diagnostics;
    all.insert(all.end(), ev.run.diagnostics.begin(), ev.run.diagnostics.end());
    diagnostics_->setDiagnostics(all, QString::fromStdString(ev.kernel));
    if (r->kind == EvaluationKind::Evaluate) {
        verification_->setEvaluation(r->evaluation, task);
        timeline_->setEvaluation(r->evaluation, r->timeline);
    } else {
        verification_->clear(tr("Check (Ctrl+B) compiles only: evaluate (F5) to verify."));
        timeline_->clear(tr("Check (Ctrl+B) compiles only: evaluate (F5) to profile."));
    }
    applied_ = !stale();
    if (applied_) {
        std::vector<EditorMark> marks;
        for (int row = 0; row < diagnostics_->rowCount(); ++row) {
            if (!diagnostics_->inCandidate(row)) continue;
            const auto& d = diagnostics_->diagnostic(row);
            marks.push_back({d.line, d.column, d.severity, QString::fromStdString(d.message)});
        }
        editor_->setMarks(marks);
        std::vector<LineHeat> heat;
        if (r->kind == EvaluationKind::Evaluate)
            for (const auto& l : ev.profile.lines) heat.push_back({l.line, l.cycles});
        if (heat.empty()) editor_->clearHeat();
        else editor_->setHeat(heat);
    }
    updateStatus();
}

QString EvaluationPresenter::statusLine() const {
    if (!current_ || !current_->evaluation) return tr("No evaluation");
    const auto& ev = *current_->evaluation;
    QStringList parts;
    parts << (ev.compile.ok ? tr("compiled") : tr("compile failed"));
    if (current_->kind == EvaluationKind::Evaluate && ev.compile.ok) {
        parts << tr("run %1").arg(coreText(toString(ev.run.status)));
        if (ev.verify.ran) parts << (ev.verify.pass ? tr("verified") : tr("WRONG RESULT"));
        if (ev.profile.present)
            parts << tr("%1 cycles, %2% roofline").arg(ev.profile.totalCycles).arg(100 * ev.profile.rooflineFraction, 0, 'f', 1);
    }
    parts << tr("%1 s").arg(ev.seconds, 0, 'f', 1);
    return parts.join(QStringLiteral(" · "));
}

void EvaluationPresenter::updateStatus() {
    const bool isStale = stale();
    if (current_ && current_->evaluation) {
        QString html = QStringLiteral("<b>%1</b> error(s), <b>%2</b> warning(s) · %3")
                           .arg(diagnostics_->errorCount())
                           .arg(diagnostics_->warningCount())
                           .arg(statusLine().toHtmlEscaped());
        if (!origin_.isEmpty()) html += QStringLiteral(" · <i>%1</i>").arg(origin_.toHtmlEscaped());
        if (isStale)
            html += applied_ ? tr(" · <span style='color:#ef6c00'><b>edited since</b> — re-evaluate (F5)</span>")
                             : tr(" · <span style='color:#c62828'><b>stale</b>: computed for an older text, not "
                                  "applied to the editor — re-evaluate (F5)</span>");
        diagnosticsPanel_->setStatus(html);
    }
    if (isStale != lastStale_) {
        lastStale_ = isStale;
        emit staleChanged(isStale);
    }
}

} // namespace sage::ui
