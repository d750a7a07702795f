// A compiler or checker message, mapped to the candidate's own file and line.
#pragma once

#include "DiagnosticKind.h"

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace sage::toolchain {

enum class Severity { Error, Warning, Note };  // worst first: the editor ranks a line by it

// The stored spelling: "error", "warning", "note".
std::string_view toString(Severity severity);
// The inverse of toString. Text that names none of them (a damaged or foreign file) reads as an
// error, so nothing that may have failed is shown as harmless.
Severity severityFrom(std::string_view text);

struct DiagnosticNote {
    std::string file;
    int line = 0;
    int column = 0;
    std::string message;
};

struct Diagnostic {
    DiagnosticKind kind;   // compile_error, rejected_include, ... or a simulator kind (race_raw, ...)
    Severity severity = Severity::Error;
    std::string file;      // the candidate's name (e.g. "kernel.cpp"), or a header for context
    int line = 0;
    int column = 0;
    std::string message;
    std::vector<DiagnosticNote> notes;
};

nlohmann::json toJson(const Diagnostic& d);
Diagnostic diagnosticFromJson(const nlohmann::json& j);

} // namespace sage::toolchain
