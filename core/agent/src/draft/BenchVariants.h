// A CANN Bench operator's draft: the composer's draft of each case variant under an #if on the
// variant's macros, the tunables declared once (BenchVariants.cpp).
#pragma once

#include "sage_agent/KernelComposer.h"

#include <functional>

namespace sage::agent::draft {

// `compose` drafts one variant (a copy of the task with that variant's dtypes and compute spec,
// Task::bench cleared) for the device and with the memory the caller has. Never throws.
DraftResult composeBenchDraft(const eval::Task& task, const std::function<DraftResult(const eval::Task&)>& compose);

} // namespace sage::agent::draft
