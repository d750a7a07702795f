// Compiles a candidate kernel file into a shared object with the host compiler, linked against
// the simulator runtime. Results (success or diagnostics) are cached by content: the source,
// the prelude, the device, the flags, the compiler and the kernel headers.
#pragma once

#include "Diagnostic.h"
#include "ToolPaths.h"

#include <atomic>
#include <string>
#include <vector>

namespace sage::toolchain {

// A file the compile sees in its staging folder, as CANN's build copies an op tree's kernel
// folders next to each other (StagedOpTree in core/eval): `path` relative, without "..", and
// `text` the one the source policy checked (the compiler never reads the tree for it).
struct StagedFile {
    std::string path;
    std::string text;
};

struct CompileRequest {
    std::string source;        // the candidate file's text, compiled unmodified
    // Further translation units (source texts) compiled each on its own, with the same flags and
    // prelude, and linked into the same shared object: an op's host sources, which CANN's build
    // compiles one by one into one host library. Part of the cache key.
    std::vector<std::string> units;
    std::string displayName;   // the name diagnostics use, e.g. "kernel.cpp"
    std::string prelude;       // task-generated macros (DTYPE_X, tiling type), force-included
    int npuArch = 2201;        // __NPU_ARCH__ of the target device
    std::string deviceId;
    bool isReference = false;  // compile a task reference (sage_reference.h) instead of a kernel
    std::vector<std::string> extraFlags;
    // The project the -I folders of extraFlags belong to (an op tree): each folder must resolve
    // inside it (or inside the kernel headers), links included. Empty: no folder may be a link.
    std::string projectRoot;
    // Files written under the compile's staging folder, and the candidate's own folder there
    // (searched after every -I folder of extraFlags, so that "../inc/platform.h" resolves as in
    // the real build). Part of the cache key.
    std::vector<StagedFile> staged;
    std::string stagedDir;
    // A compile nobody waits for yet (the agent's speculative one): lowest CPU priority, and
    // stopped when `cancel` becomes true (such a result is never cached).
    bool background = false;
    const std::atomic<bool>* cancel = nullptr;
};

struct CompileResult {
    bool ok = false;
    bool cached = false;
    double seconds = 0;
    std::string sharedObject;  // path of the .so when ok
    std::string cacheKey;
    std::vector<Diagnostic> diagnostics;
};

class Compiler {
public:
    explicit Compiler(ToolPaths paths);
    // Never throws for a bad candidate: problems come back as diagnostics. Throws std::runtime_error
    // only when the toolchain itself is unusable (no compiler, cache not writable).
    CompileResult compile(const CompileRequest& req) const;
    std::string cacheKey(const CompileRequest& req) const;
    const ToolPaths& paths() const { return paths_; }
    // Builds the precompiled kernel_operator.h for a device architecture (or, with `reference`,
    // sage_reference.h) now, under `<libDir>/pch/` (where compile() looks first), so that even the
    // first compile after a fresh cache uses it. Run at build time by sage-prebuild-pch. False
    // (and `error`) when GCC fails.
    bool prebuildHeader(int npuArch, bool reference, bool withStd, std::string* error) const;

private:
    std::vector<std::string> flags(const CompileRequest& req) const;
    // The PCH's flags and the folder name they hash to (one PCH per flag set).
    std::pair<std::vector<std::string>, std::string> pchFlagsAndKey(const CompileRequest& req, bool withStd) const;
    // The shell command that builds the PCH for `flags` into `dir` (atomically, via a temporary folder).
    std::string pchBuildCommand(const std::vector<std::string>& flags, const std::string& header, bool withStd,
                                const std::string& dir,
                                const std::string& lock) const;
    // The precompiled kernel_operator.h (sage_reference.h for a reference) for these flags
    // ("-include <path>" uses it), or "" when it
    // is not built yet (then a background build is started and this compile parses the headers).
    std::string precompiledHeader(const CompileRequest& req) const;
    ToolPaths paths_;
    std::string headerDigest_;
};

// Maps GCC's JSON diagnostics (and, for errors inside headers, the instantiation context from a
// text-format pass) onto the candidate's lines.
std::vector<Diagnostic> parseGccJsonDiagnostics(const std::string& json, const std::string& candidatePath,
                                                const std::string& displayName);
// "file:line:col:   required from here" lines from GCC's text output that point into the candidate.
std::vector<std::pair<int, int>> instantiationSites(const std::string& text, const std::string& candidatePath);

} // namespace sage::toolchain
