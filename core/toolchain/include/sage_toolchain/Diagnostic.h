// A compiler or checker message, mapped to the candidate's own file and line.
#pragma once

#include "DiagnosticKind.h"

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace sage::toolchain {

struct DiagnosticNote {
    std::string file;
    int line = 0;
    int column = 0;
    std::string message;
};

struct Diagnostic {
    DiagnosticKind kind;   // compile_error, rejected_include, ... or a simulator kind (race_raw, ...)
    std::string severity;  // "error", "warning", "note"
    std::string file;      // the candidate's name (e.g. "kernel.cpp"), or a header for context
    int line = 0;
    int column = 0;
    std::string message;
    std::vector<DiagnosticNote> notes;
};

nlohmann::json toJson(const Diagnostic& d);
Diagnostic diagnosticFromJson(const nlohmann::json& j);

} // namespace sage::toolchain
