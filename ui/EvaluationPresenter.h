// Shows one evaluation result in the panels: diagnostics (table + editor marks), verification,
// timeline and the editor's cycle heatmap. A result computed from an older revision of the
// editor's text is "stale": the panels show it, flagged, but its marks and heatmap are never
// applied to the editor, whose lines no longer match.
#pragma once

#include "sage_eval/Task.h"
#include "ui/EvaluationResult.h"

#include <QObject>

namespace sage::ui {

class DiagnosticsModel;
class DiagnosticsPanel;
class KernelEditor;
class TimelinePanel;
class VerificationPanel;

class EvaluationPresenter : public QObject {
    Q_OBJECT
public:
    EvaluationPresenter(KernelEditor* editor, DiagnosticsModel* diagnostics, DiagnosticsPanel* diagnosticsPanel,
                        VerificationPanel* verification, TimelinePanel* timeline, QObject* parent = nullptr);
    // `origin` says where it came from ("iteration 3 of run 2"); empty for the editor's own.
    void present(EvaluationResultPtr result, std::shared_ptr<const eval::Task> task, const QString& origin = {});
    void clear(const QString& message = {});
    EvaluationResultPtr current() const { return current_; }
    bool stale() const;           // the editor changed since the shown result's text
    bool appliedToEditor() const { return applied_; }
    QString statusLine() const;   // one-line summary for the status bar

signals:
    void staleChanged(bool stale);

private:
    void updateStatus();
    KernelEditor* editor_;
    DiagnosticsModel* diagnostics_;
    DiagnosticsPanel* diagnosticsPanel_;
    VerificationPanel* verification_;
    TimelinePanel* timeline_;
    EvaluationResultPtr current_;
    QString origin_;
    bool applied_ = false;
    bool lastStale_ = false;
};

} // namespace sage::ui
