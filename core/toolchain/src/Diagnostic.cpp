#include "sage_toolchain/Diagnostic.h"

#include <nlohmann/json.hpp>

namespace sage::toolchain {

std::string_view toString(Severity severity) {
    switch (severity) {
    case Severity::Warning: return "warning";
    case Severity::Note: return "note";
    case Severity::Error: break;
    }
    return "error";
}

Severity severityFrom(std::string_view text) {
    if (text == "warning") return Severity::Warning;
    if (text == "note") return Severity::Note;
    return Severity::Error;
}

nlohmann::json toJson(const Diagnostic& d) {
    nlohmann::json notes = nlohmann::json::array();
    for (const auto& n : d.notes)
        notes.push_back({{"file", n.file}, {"line", n.line}, {"column", n.column}, {"message", n.message}});
    return {{"kind", d.kind.name()},         {"severity", toString(d.severity)}, {"file", d.file}, {"line", d.line},
            {"column", d.column},     {"message", d.message},   {"notes", notes}};
}

Diagnostic diagnosticFromJson(const nlohmann::json& j) {
    Diagnostic d;
    d.kind = DiagnosticKind::parse(j.value("kind", ""));
    d.severity = severityFrom(j.value("severity", "error"));
    d.file = j.value("file", "");
    d.line = j.value("line", 0);
    d.column = j.value("column", 0);
    d.message = j.value("message", "");
    for (const auto& n : j.value("notes", nlohmann::json::array()))
        d.notes.push_back({n.value("file", ""), n.value("line", 0), n.value("column", 0), n.value("message", "")});
    return d;
}

} // namespace sage::toolchain
