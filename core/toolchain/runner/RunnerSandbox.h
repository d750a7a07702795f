// The runner's own layer of the sandbox: a seccomp allowlist (default deny) and the files a job
// may touch, opened before the filter so that no path is ever opened while kernel code runs.
//
// Two stages: `Loading` (before the candidate's shared object is dlopen'ed, so its constructors
// are covered) still lets the dynamic loader open files read-only; `Running` (after dlopen) allows
// no open at all, no executable mapping (so no code of the runner can be patched) and no
// duplicated descriptor. Every other syscall outside the allowlist raises SIGSYS; the handler
// writes "sage-runner: sandbox violation: syscall <nr>" to stderr as its last line and exits
// with kViolationExit through the exit_group system call itself (libc's _exit could be patched).
#pragma once

#include "sage_toolchain/RunJob.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sage::runner {

constexpr int kViolationExit = 4;
constexpr int kSelfRaisedSigsysExit = 6;  // a SIGSYS that no blocked system call raised

// Opens every input (read) and output (write) file of the job and each result_<i>.json.
void openJobFiles(const toolchain::RunJob& job);
// The pre-opened descriptor for a job file; throws for a path the job did not declare.
int jobFile(const std::string& path);
std::vector<uint8_t> readJobFile(const std::string& path, uint64_t expected);
// The same bytes read straight into `dst` (a GM tensor), without an intermediate copy.
void readJobFileInto(const std::string& path, void* dst, uint64_t expected);
// Writes a job output once and closes its descriptor: nothing that runs later (the next run's
// kernel) can rewrite it.
void writeJobFile(const std::string& path, const void* data, size_t n);
// Ends the process at once with `code` (exit_group itself): no atexit handler, no static
// destructor and no destructor of the candidate runs after the results were written.
[[noreturn]] void exitNow(int code);

enum class FilterStage { Loading, Running };
// Installs the stage's filter (filters stack: Running narrows Loading). Returns false with a
// message when seccomp is unavailable; the caller refuses to run the kernel then.
bool installFilter(FilterStage stage, std::string& error);

} // namespace sage::runner
