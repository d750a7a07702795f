#include "sage_toolchain/RunStatus.h"

#include "sage_toolchain/NameTable.h"

#include <array>
#include <cstddef>

namespace sage::toolchain {
namespace {

// Indexed by RunStatus; the order is the enum's.
constexpr std::array<std::string_view, 15> kNames{
    "not_run", "ok",        "race",         "sim_error",         "error",    "oom",          "crash",      "timeout",
    "cancelled", "sandbox_violation", "unaccounted_output", "impossible_result", "rejected", "compile_error", "bad_input"};
static_assert(kNames.size() == std::size_t(RunStatus::BadInput) + 1, "one name per RunStatus");

} // namespace

std::string_view toString(RunStatus status) { return kNames[std::size_t(status)]; }

std::optional<RunStatus> parseRunStatus(std::string_view text) {
    if (auto i = indexOfName(kNames, text)) return RunStatus(*i);
    return std::nullopt;
}

RunStatus runStatusFrom(std::string_view text, std::string* note) {
    if (auto status = parseRunStatus(text)) return *status;
    if (note) *note = "unknown run status '" + std::string(text.substr(0, 64)) + "' (read as error)";
    return RunStatus::Error;
}

bool ranToEnd(RunStatus status) { return status == RunStatus::Ok || status == RunStatus::Race; }

bool simulatorDecided(RunStatus status) { return ranToEnd(status) || status == RunStatus::SimError; }

} // namespace sage::toolchain
