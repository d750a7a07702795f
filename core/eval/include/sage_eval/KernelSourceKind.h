// What a source file of a scanned kernel tree is: a kernel (device code only), a host launcher
// (a `main.cpp` that declares the kernel and drives it through ACL calls, a `<<<>>>` launch or
// the CPU-debug harness — host code, not a kernel), or a single-file program (an `.asc` file, or
// a `.cpp` that defines a kernel and also holds its host launch). Of a program only the device
// part is compiled as a kernel: deviceSourceOf() blanks the host part.
#pragma once

#include <string>

namespace sage::eval {

enum class KernelSourceKind { Kernel, HostLauncher, Program };

const char* toString(KernelSourceKind kind);

struct KernelSourceClass {
    KernelSourceKind kind = KernelSourceKind::Kernel;
    std::string hostMarker;  // what made it host code ("includes acl/acl.h", "<<<>>> launch", ...); empty for a kernel
};

// `fileName` decides `.asc`; `text` is the file's content.
KernelSourceClass classifyKernelSource(const std::string& fileName, const std::string& text);

// `text` with its host part blanked (spaces, newlines kept, so diagnostics keep their lines):
// host-only includes (acl/, host tiling, the CPU-debug harness, file and stream helpers) and every
// top-level function that is `main` or whose body holds a `<<<>>>` launch, an ACL call, the host
// tiling APIs (matmul_tiling::, platform_ascendc::), console output or the file helpers.
std::string deviceSourceOf(const std::string& text);

// The compile definitions a program's CMakeLists.txt passes from cache variables with a default
// (`set(SCENARIO_NUM "4" CACHE ...)` and `SCENARIO_NUM=${SCENARIO_NUM}`), as `#ifndef`-guarded
// `#define` lines. Values other than a plain token (letters, digits, `_`, `.`) are left out.
std::string buildDefinitionsOf(const std::string& cmakeText);

// A program rewritten to run as a whole on the simulator (`sage op PROGRAM.asc`), with
// sage_asc/program.h force-included: each `kernel<<<blockDim, l2ctrl, stream>>>(args)` launch
// becomes a call of the simulator's launch, `main` is renamed and called by the run's entry
// (appended), the samples' "data_utils.h" is replaced by sage_asc/files.h and every acl/ header by
// the ACL shim. Lines are kept, so diagnostics name the program's own lines. `error` says why a
// program cannot run (no `main`, a launch that is not `name<<<...>>>(...)`); then `source` is empty.
struct ProgramSource {
    std::string source;
    std::string error;
    int launches = 0;  // `<<<>>>` launches rewritten
};
ProgramSource programSourceOf(const std::string& text);

// True when `text` defines (not only declares) a `__global__` kernel entry.
bool definesKernelEntry(const std::string& text);

} // namespace sage::eval
