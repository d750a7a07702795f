// Unified diffs between two candidate files (dtl), and the lines a diff adds — what adoption
// evidence is matched against.
#pragma once

#include <string>

namespace sage::agent {

std::string unifiedDiff(const std::string& before, const std::string& after, const std::string& name = "kernel.cpp");
std::string addedLines(const std::string& unifiedDiffText);

} // namespace sage::agent
