#include "sage_toolchain/Diagnostic.h"

#include "sage_toolchain/NameTable.h"

#include <array>
#include <cstddef>

#include <nlohmann/json.hpp>

namespace sage::toolchain {

namespace {
// Indexed by Severity; the order is the enum's.
constexpr std::array<std::string_view, 3> kSeverityNames{"error", "warning", "note"};
static_assert(kSeverityNames.size() == std::size_t(Severity::Note) + 1, "one name per Severity");
} // namespace

std::string_view toString(Severity severity) { return kSeverityNames[std::size_t(severity)]; }

Severity severityFrom(std::string_view text) {
    return Severity(indexOfName(kSeverityNames, text).value_or(std::size_t(Severity::Error)));
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
