// The check before compiling: a candidate may include only kernel_operator.h and a documented
// set of standard headers, and may not use inline assembly, simulator internals, or file,
// network, process, thread or clock APIs. Each violation is a diagnostic at its line.
#pragma once

#include "Diagnostic.h"

#include <string>
#include <vector>

namespace sage::toolchain {

class SourcePolicy {
public:
    // `file` is the name diagnostics carry (the candidate's display name).
    static std::vector<Diagnostic> check(const std::string& source, const std::string& file);
    static const std::vector<std::string>& allowedHeaders();
};

} // namespace sage::toolchain
