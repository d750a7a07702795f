// The check before compiling: a candidate may include only kernel_operator.h, a documented set of
// standard headers, kernel_tiling/kernel_tiling.h, the lib/ headers the simulator implements and,
// inside an op project, the local headers of its op directory. It may not use inline assembly,
// simulator internals, or file, network, process, thread or clock APIs. Each violation is a
// diagnostic at its line saying why.
#pragma once

#include "Diagnostic.h"

#include <string>
#include <vector>

namespace sage::toolchain {

class SourcePolicy {
public:
    // `file` is the name diagnostics carry (the candidate's display name).
    // `localHeaders` are the quoted include names that resolve to files of the candidate's op
    // directory (as written in the #include, e.g. "add_tiling.h" or "../op_host/add_tiling.h");
    // the caller (OpProject) resolves them and checks their text with check() as well.
    static std::vector<Diagnostic> check(const std::string& source, const std::string& file,
                                         const std::vector<std::string>& localHeaders = {});
    static const std::vector<std::string>& allowedHeaders();
    // AscendC headers beyond kernel_operator.h that the simulator ships (kernel_tiling/, lib/).
    static const std::vector<std::string>& shippedAscendHeaders();
    // `source` with comments and string/char literals blanked (newlines kept): code only.
    static std::string codeOnly(const std::string& source);
};

} // namespace sage::toolchain
