// Mode "host_tiling": call the op's compiled host program (op_host/<op>.cpp with
// host/sage_op_host_driver.h) once per run, under the same seccomp filter as a kernel. The
// answer is the op's own code's output, so it is parsed here and bounded again by the parent.
#include "RunnerContexts.h"

#include <chrono>
#include <dlfcn.h>
#include <stdexcept>

namespace sage::runner {
using nlohmann::json;

json runHostTiling(void* so, const toolchain::RunSpec& run) {
    auto fn = reinterpret_cast<const char* (*)(const char*)>(dlsym(so, "sage_op_host_tiling"));
    if (!fn)
        throw std::runtime_error("the host program exports no sage_op_host_tiling: it was not compiled by `sage op` "
                                 "(host/sage_op_host_driver.h force-included)");
    const auto t0 = std::chrono::steady_clock::now();
    const char* answer = fn(run.extra.dump().c_str());
    if (!answer) throw std::runtime_error("the host program's tiling entry returned nothing");
    json extra = json::parse(answer);
    return {{"status", toolchain::toString(toolchain::RunStatus::Ok)},
            {"extra", std::move(extra)},
            {"seconds", std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()}};
}

} // namespace sage::runner
