#include "sage_agent/IterationStatus.h"

#include "sage_toolchain/NameTable.h"

#include <array>
#include <cstddef>

namespace sage::agent {
namespace {

using toolchain::RunStatus;

// Indexed by IterationStatus; the order is the enum's.
constexpr std::array<std::string_view, 18> kNames{
    "ok",        "wrong_result",      "compile_error",      "rejected",          "race",      "sim_error",
    "error",     "oom",               "crash",              "timeout",           "sandbox_violation",
    "unaccounted_output", "impossible_result", "bad_input", "not_run",           "cancelled", "policy_error",
    "exhausted"};
static_assert(kNames.size() == std::size_t(IterationStatus::Exhausted) + 1, "one name per IterationStatus");

} // namespace

std::string_view toString(IterationStatus status) { return kNames[std::size_t(status)]; }

std::optional<IterationStatus> parseIterationStatus(std::string_view text) {
    if (auto i = toolchain::indexOfName(kNames, text)) return IterationStatus(*i);
    return std::nullopt;
}

IterationStatus iterationStatusOf(RunStatus run) {
    switch (run) {
    case RunStatus::Ok: return IterationStatus::Ok;
    case RunStatus::Race: return IterationStatus::Race;
    case RunStatus::SimError: return IterationStatus::SimError;
    case RunStatus::Error: return IterationStatus::Error;
    case RunStatus::Oom: return IterationStatus::Oom;
    case RunStatus::Crash: return IterationStatus::Crash;
    case RunStatus::Timeout: return IterationStatus::Timeout;
    case RunStatus::Cancelled: return IterationStatus::Cancelled;
    case RunStatus::SandboxViolation: return IterationStatus::SandboxViolation;
    case RunStatus::UnaccountedOutput: return IterationStatus::UnaccountedOutput;
    case RunStatus::ImpossibleResult: return IterationStatus::ImpossibleResult;
    case RunStatus::Rejected: return IterationStatus::Rejected;
    case RunStatus::CompileError: return IterationStatus::CompileError;
    case RunStatus::BadInput: return IterationStatus::BadInput;
    case RunStatus::NotRun: return IterationStatus::NotRun;
    }
    return IterationStatus::Error;
}

} // namespace sage::agent
