// What an evaluation job hands back to the GUI: the core Evaluation, the timeline laid out for
// drawing (built on the worker), and the tags that let the GUI decide whether it still applies:
// the job id (newer jobs supersede older ones) and the editor revision the source was taken from.
#pragma once

#include "sage_eval/Evaluation.h"
#include "sage_eval/Task.h"
#include "ui/TimelineData.h"

#include <QMetaType>
#include <QString>

#include <memory>

namespace sage::ui {

enum class EvaluationKind { Compile, Evaluate };

struct EvaluationResult {
    quint64 jobId = 0;
    quint64 revision = 0;  // the editor revision whose text was evaluated
    EvaluationKind kind = EvaluationKind::Evaluate;
    QString taskName;
    std::shared_ptr<const eval::Task> task;  // an op project's spec (what it is verified against); else null
    QString source;        // the text that was evaluated
    std::shared_ptr<const eval::Evaluation> evaluation;
    std::shared_ptr<const TimelineData> timeline;
    QString error;         // set when the pipeline itself failed (toolchain missing, bad device)
    bool cancelled = false;
    bool ok() const { return error.isEmpty() && evaluation != nullptr; }
};

using EvaluationResultPtr = std::shared_ptr<const EvaluationResult>;

} // namespace sage::ui

Q_DECLARE_METATYPE(sage::ui::EvaluationResultPtr)
