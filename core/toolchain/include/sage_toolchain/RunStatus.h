// How a kernel run ended, and the ways an evaluation of a kernel ends before it runs. The value
// travels typed from the sandbox to the UI; its spelling is used only where it is written to or
// read from JSON, SQL or text, and is the spelling earlier versions stored (so their files load).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace sage::toolchain {

enum class RunStatus {
    NotRun,            // not run (yet): compile only, or nothing asked for a run
    Ok,                // ran to the end without an error
    Race,              // ran to the end, but two pipes touched the same bytes unsynchronised
    SimError,          // the simulator stopped it (capacity, bounds, queue misuse, ...)
    Error,             // the runner, a reference or a result file failed
    Oom,               // ran out of memory
    Crash,             // killed by a signal
    Timeout,           // wall-clock or CPU limit
    Cancelled,         // the user (or the agent) cancelled it
    SandboxViolation,  // the kernel made a system call the sandbox blocks
    UnaccountedOutput, // output bytes no simulated instruction wrote
    ImpossibleResult,  // fewer cycles than the device's physical bound
    Rejected,          // the source policy refused the kernel (not compiled)
    CompileError,      // the kernel did not compile (an op program's status)
    BadInput,          // the op's inputs or its host tiling were unusable (an op program's status)
};

// The stored spelling: "not_run", "ok", "race", "sim_error", ...
std::string_view toString(RunStatus status);
// The inverse of toString; nullopt for any other text.
std::optional<RunStatus> parseRunStatus(std::string_view text);
// parseRunStatus for text read from outside (a result file, a stored evaluation): an unknown
// status reads as Error, and `note` (when given) receives why, naming the text.
RunStatus runStatusFrom(std::string_view text, std::string* note = nullptr);

// The kernel ran to the end and its outputs and timeline count (ok, or a race it survived).
bool ranToEnd(RunStatus status);
// The simulator decided the outcome (ok, race or a sim_error): the same kernel and inputs give
// the same answer again, unlike a timeout, a crash or a cancel.
bool simulatorDecided(RunStatus status);

} // namespace sage::toolchain
