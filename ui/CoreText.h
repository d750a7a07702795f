// A core name (a stage, a run or iteration status, a diagnostic kind: the spelling toString gives)
// as a QString for display.
#pragma once

#include <QString>
#include <string_view>

namespace sage::ui {

inline QString coreText(std::string_view name) { return QString::fromUtf8(name.data(), qsizetype(name.size())); }

} // namespace sage::ui
