// How an iteration of the agent ended: the verdict on its candidate (ok, wrong result, did not
// compile, or how its run failed), or why there was no candidate. It holds every way a run ends
// (toolchain::RunStatus) plus the agent's own outcomes; the stored spelling is the run status's
// where they share a meaning, so run databases written by earlier versions load unchanged.
#pragma once

#include "sage_toolchain/RunStatus.h"

#include <optional>
#include <string_view>

namespace sage::agent {

enum class IterationStatus {
    Ok,           // correct
    WrongResult,  // ran to the end, but its outputs did not verify
    CompileError,
    Rejected,     // the source policy refused it
    // The run failed (the same meaning as the toolchain::RunStatus of the same name).
    Race,
    SimError,
    Error,
    Oom,
    Crash,
    Timeout,
    SandboxViolation,
    UnaccountedOutput,
    ImpossibleResult,
    BadInput,
    NotRun,
    Cancelled,    // the run was cancelled during the iteration
    PolicyError,  // the policy returned no candidate (a broken reply, an HTTP error, ...)
    Exhausted,    // the policy had no further move
};

// The stored spelling: "ok", "wrong_result", "compile_error", "sim_error", "policy_error", ...
std::string_view toString(IterationStatus status);
// The inverse of toString; nullopt for any other text.
std::optional<IterationStatus> parseIterationStatus(std::string_view text);
// The iteration status a run status means when the candidate compiled (Ok stays Ok: whether the
// outputs verified is the caller's to add).
IterationStatus iterationStatusOf(toolchain::RunStatus run);

} // namespace sage::agent
