// Spreads the case x seed runs of one evaluation over several sandboxed runner processes, one per
// available core, so that a 2-core machine simulates two runs at once. Runs are assigned largest
// first to the least loaded process (by tensor elements); the report keeps the input order.
#pragma once

#include "sage_toolchain/Sandbox.h"

#include <vector>

namespace sage::eval {

// Runner processes to use when the caller does not say: the cores this process may run on.
size_t availableCores();

toolchain::SandboxReport runSpread(const toolchain::Sandbox& sandbox, const toolchain::RunJob& job,
                                   const std::vector<toolchain::SandboxInput>& inputs,
                                   const toolchain::SandboxOptions& opts, size_t processes);

} // namespace sage::eval
