// `sage compat DIR`: how much of a directory of AscendC kernels (loose kernel files and op
// projects) the simulator accepts, file by file: parsed (source policy), compiled, host tiling
// ran, verified, and the first error; then totals and the identifiers most often missing.
// Nothing of the scanned directory is copied anywhere but the compile cache.
#pragma once

#include "sage_toolchain/Compiler.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace sage::eval {

struct CompatFile {
    std::string path;        // relative to the scanned directory
    std::string kind = "kernel";  // "kernel", or "program" (an .asc or kernel-plus-launch file: its device part)
    bool whole = false;           // a program compiled as a whole, host main included (--whole-programs)
    bool parsed = false;     // passed the source policy (includes resolved inside its op directory)
    bool compiled = false;
    std::string hostTiling = "n/a";  // "ran", "failed" or "n/a" (no op_host, or no spec to run it with)
    std::string verified = "n/a";    // "pass", "fail" or "n/a" (no spec next to the op)
    std::string firstError;          // "file:line: message" of the first error, empty when none
    std::vector<std::string> missing;  // identifiers the compiler could not find
};

// A file that declares a kernel but is host code (a launcher `main.cpp`): listed, never compiled
// as a kernel and not counted among the kernel files.
struct CompatHostFile {
    std::string path;
    std::string reason;  // the host code found ("includes acl/acl.h", "has a <<<>>> kernel launch", ...)
};

struct CompatReport {
    std::string root;
    std::vector<CompatFile> files;        // kernels and the device parts of programs
    std::vector<CompatHostFile> hostFiles;
    std::map<std::string, int> missingCounts;  // identifier -> files that miss it
    nlohmann::json toJson(int topMissing = 20) const;
    std::string toText(int topMissing = 20) const;
};

// What compiling one op_kernel file takes, shared by `sage compat` and `sage op`: the policy
// verdict over the file and the local headers it includes (transitively), and the compile
// request whose prelude and include folders stand for what the real build generates (the
// op_host tiling headers, SAGE_TILING_TYPE, DTYPE_<NAME> of the op's first configuration).
struct OpKernelBuild {
    std::vector<toolchain::Diagnostic> refused;  // policy errors; empty when the file may be compiled
    toolchain::CompileRequest request;           // source, displayName, prelude, extraFlags
    std::vector<std::string> localHeaders;       // include names that resolved inside the op
    std::vector<std::string> kernelTexts;        // the file and its local headers
};
// `wholeProgram`: a single-file program is prepared to run as a whole (programSourceOf, with
// sage_asc/program.h force-included and the host headers a program's main uses allowed) instead
// of for its device part. `npuArch` (the device profile's) chooses the op_host/arch<NN>/ folder
// whose tiling headers the kernel sees, unless the kernel sits in an op_kernel/arch<NN>/ folder.
OpKernelBuild prepareOpKernel(const std::string& root, const std::string& file, const std::string& npuInclude,
                              bool wholeProgram = false, int npuArch = 2201);
// The folder CANN's ops keep one architecture's host tiling in: op_host/arch22 for npu_arch 2201
// (910B), arch35 for 3510.
std::string hostArchDirOf(int npuArch);
// Whether a folder name is one architecture's folder ("arch22", "arch35").
bool isArchFolder(const std::string& name);
// The op directory a kernel file belongs to (the parent of its op_kernel/ folder).
std::string opRootOf(const std::string& kernelFile);
// The tree an op belongs to (the highest folder above it holding `common/`, else the op folder):
// every project file and include folder must resolve inside it.
std::string projectTreeOf(const std::string& opRoot);
// The `common` include folders of the tree above an op directory (common/inc, common/op_host...).
std::vector<std::string> commonIncludeDirsOf(const std::string& opRoot);

class CompatScanner {
public:
    CompatScanner(const toolchain::Compiler& compiler, int npuArch, std::string deviceId);
    // Called per op_kernel file after it compiled: fills hostTiling and verified when a spec
    // for its op exists (`sage compat --specs DIR` runs the op through `sage op`).
    std::function<void(const std::string& opRoot, CompatFile&)> onCompiled;
    // Compile a single-file program as a whole (its host main against the ACL shim, its kernels
    // instantiated by its launches: what `sage op PROGRAM.asc` runs) instead of its device part.
    bool wholePrograms = false;
    // Kernel files: every .cpp under an op_kernel/ directory, any other .cpp that names a
    // `__global__ __aicore__` (or `__vector__`/`__cube__`) entry, and every `.asc` program. Host
    // launchers among them (KernelSourceKind.h) go to `hostFiles`. `limit` > 0 stops after that
    // many files (sorted by path).
    CompatReport scan(const std::string& dir, int limit = 0) const;
    CompatFile scanFile(const std::string& root, const std::string& file) const;
    // Identifiers named by "was not declared", "is not a member of", "does not name a type",
    // "has not been declared", "has no member named" and "no matching function for call to".
    static std::vector<std::string> missingIdentifiers(const std::string& message);

private:
    const toolchain::Compiler& compiler_;
    int npuArch_;
    std::string deviceId_;
};

} // namespace sage::eval
