// Which experience statuses wait for an engineer's review: entries nobody has judged yet
// ("pending") and lessons the agent distilled that automated runs already try ("trial"). The
// memory browser's review queue and its count badge both read this list; a new status that
// needs review is added here and nowhere else.
#pragma once

#include "sage_memory/ExperienceFields.h"

#include <QString>
#include <QStringList>

namespace sage::ui {

inline const QStringList& reviewQueueStatuses() {
    static const QStringList statuses{QStringLiteral("pending"), QStringLiteral("trial")};
    return statuses;
}

inline bool awaitsReview(memory::ExperienceStatus status) {
    const std::string_view name = memory::toString(status);
    return reviewQueueStatuses().contains(QString::fromUtf8(name.data(), qsizetype(name.size())));
}

} // namespace sage::ui
