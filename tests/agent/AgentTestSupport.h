// What the agent tests share: an evaluator whose caches live in the test's own temporary folder.
#pragma once

#include "sage_eval/Evaluator.h"
#include "sage_toolchain/DeviceCatalog.h"
#include "sage_toolchain/ToolPaths.h"

#include <QString>
#include <memory>

// This build's runner and tools, the shipped device profiles, and compile/run/reference caches
// under `dir` (so no test sees another's cached results).
inline std::unique_ptr<sage::eval::Evaluator> evaluatorCachedIn(const QString& dir) {
    auto paths = sage::toolchain::ToolPaths::fromEnvironment();
    paths.binDir = SAGE_TEST_BIN_DIR;
    paths.cacheDir = (dir + "/cache").toStdString();
    return std::make_unique<sage::eval::Evaluator>(paths,
                                                   sage::toolchain::DeviceCatalog::loadDirectory(paths.devicesDir()));
}
