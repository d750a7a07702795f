// Force-included when a single-file AscendC program (`.asc`) runs as a whole on the simulator
// (`sage op PROGRAM.asc`): the kernel API, the ACL runtime shim, the `<<<>>>` launch and the
// entry the sandboxed runner calls. The program's source reaches the compiler rewritten
// (programSourceOf, core/eval): `kernel<<<blockDim, l2ctrl, stream>>>(args)` becomes
// `::sage::asc::launcher(kernel, "kernel", loc, blockDim, l2ctrl, stream)(args)`, its `main` is
// renamed `sage_asc_main`, and SAGE_ASC_PROGRAM_ENTRY(sage_asc_main) is appended.
#pragma once

#include "acl/acl.h"
#include "kernel_launch.h"
#include "kernel_operator.h"
#include "simt_api/simt_builtins.h"

#include <cstdio>
#include <iostream>
#include <type_traits>

namespace sage::asc {

// The run's context while main() runs (the program's files live in it: sage_asc/files.h).
inline ::sage::host::Context* g_context = nullptr;

// The output that receives, as two int32, main's return value and how many files the program
// wrote that the run was not asked to keep (sage_asc/files.h: WriteFile of an uncompared file).
constexpr const char* kExitCodeTensor = "sage_exit_code";
inline int32_t g_unkeptWrites = 0;

template <typename F> struct Launcher {
    F kernel;
    const char* name;
    ::sage::npu::Loc loc;
    uint32_t blockDim;
    template <typename... Args> void operator()(Args... args) const {
        if (blockDim == 0) {
            std::cerr << "sage: the <<<>>> launch of " << name << " at line " << loc.line()
                      << " asks for 0 blocks; the device refuses such a launch\n";
            return;
        }
        ::sage::npu::detail::launchKernel(name, blockDim, kernel, loc, args...);
    }
};

// `kernel<<<blockDim, l2ctrl, stream>>>`: the stream and the L2 control word change nothing on
// a device that runs one launch at a time.
template <typename F, typename... Rest>
Launcher<F> launcher(F kernel, const char* name, ::sage::npu::Loc loc, uint32_t blockDim, Rest&&...) {
    return {kernel, name, loc, blockDim};
}

// `kernel<<<grid, threads, ubuf, stream>>>` of a `__global__` SIMT kernel (one without a core
// qualifier): the grid's blocks each run `threads` threads (simt_api/simt_builtins.h). The
// dynamic UB size and the stream change nothing here.
template <typename F> struct SimtLauncher {
    F kernel;
    const char* name;
    ::sage::npu::Loc loc;
    dim3 grid, threads;
    template <typename... Args> void operator()(Args... args) const {
        ::sage::simt::launchKernel(name, grid, threads, kernel, loc, args...);
    }
};
template <typename F, typename... Rest>
SimtLauncher<F> simtLauncher(F kernel, const char* name, ::sage::npu::Loc loc, dim3 grid, dim3 threads = dim3(),
                             Rest&&...) {
    return {kernel, name, loc, grid, threads};
}

template <typename F> int callMain(F main, int argc, char** argv) {
    if constexpr (std::is_invocable_v<F, int, char**>) return int(main(argc, argv));
    else if constexpr (std::is_invocable_v<F, int, const char**>) return int(main(argc, const_cast<const char**>(argv)));
    else return int(main());
}

// Runs the program's main with its console output on stderr (the runner's stdout is not kept),
// and stores main's return value and the unkept writes for the verdict.
template <typename F> void runProgramMain(::sage::host::Context& ctx, F main) {
    g_context = &ctx;
    g_unkeptWrites = 0;
    std::streambuf* out = std::cout.rdbuf(std::cerr.rdbuf());
    static char name[] = "program";
    char* argv[] = {name, nullptr};
    int32_t code = 0;
    try {
        code = callMain(main, 1, argv);
    } catch (...) {
        std::cout.flush();
        std::cout.rdbuf(out);
        g_context = nullptr;
        throw;
    }
    std::cout.flush();
    std::fflush(stdout);
    std::cout.rdbuf(out);
    const int32_t result[2] = {code, g_unkeptWrites};
    std::memcpy(ctx.gm(kExitCodeTensor), result, sizeof result);
    g_context = nullptr;
}

} // namespace sage::asc

#define SAGE_ASC_PROGRAM_ENTRY(mainFunction)                                                                         \
    SAGE_HOST(sageContext) {                                                                                         \
        ::sage::asc::runProgramMain(sageContext, [](int argc, char** argv) {                                         \
            return ::sage::asc::callMain(mainFunction, argc, argv);                                                  \
        });                                                                                                          \
    }
