// sage-runner: executes one evaluation job inside the sandbox the parent prepared (its own
// process, limits, private directory). Reads job.json, writes result_<i>.json and the output
// tensors of each run as it finishes, so a crash loses only the run that crashed.
//
// Exit codes: 0 done (see the results), 2 bad job, 3 out of memory, 4 sandbox violation (a
// blocked syscall; stderr names it), 5 the seccomp filter could not be installed, 6 the kernel
// raised SIGSYS itself.
#include "RunnerContexts.h"
#include "RunnerSandbox.h"

#include "sage_toolchain/DeviceCatalog.h"
#include "sage_toolchain/RunJob.h"

#include <cstdio>
#include <dlfcn.h>
#include <fstream>
#include <iostream>
#include <malloc.h>
#include <new>
#include <sstream>

using namespace sage;
using nlohmann::json;

namespace {

void writeJson(const std::string& path, const json& j) {
    const std::string text = j.dump();
    runner::writeJobFile(path, text.data(), text.size());
}

int runAll(const toolchain::RunJob& job) {
    npu::DeviceProfile profile = toolchain::DeviceCatalog::fromJson(job.device, "job device");
    runner::openJobFiles(job);
    // The filter goes in before the candidate is loaded, so its constructors run under it too.
    std::string error;
    if (!runner::installFilter(runner::FilterStage::Loading, error)) {
        std::cerr << "sage-runner: cannot install the seccomp filter: " << error << "\n";
        return 5;
    }
    void* so = dlopen(job.sharedObject.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!so) {
        std::cerr << "sage-runner: cannot load " << job.sharedObject << ": " << dlerror() << "\n";
        return 2;
    }
    if (!runner::installFilter(runner::FilterStage::Running, error)) {
        std::cerr << "sage-runner: cannot install the seccomp filter: " << error << "\n";
        return 5;
    }
    for (size_t i = 0; i < job.runs.size(); ++i) {
        json result;
        bool outOfMemory = false;
        try {
            result = job.mode == "reference"     ? runner::runReference(so, job.runs[i])
                     : job.mode == "host_tiling" ? runner::runHostTiling(so, job.runs[i])
                                                 : runner::runKernel(so, job, job.runs[i], profile);
        } catch (const std::bad_alloc&) {
            outOfMemory = true;
            result = {{"status", toolchain::toString(toolchain::RunStatus::Oom)}, {"message", "the run ran out of memory (allocation failed)"}};
        } catch (const std::exception& e) {
            result = {{"status", toolchain::toString(toolchain::RunStatus::Error)}, {"message", e.what()}};
        }
        result["id"] = job.runs[i].id;
        writeJson("result_" + std::to_string(i) + ".json", result);
        if (outOfMemory) runner::exitNow(3);
    }
    // Nothing of the candidate runs after its last result: no destructor, no atexit handler.
    std::cout.flush();
    std::fflush(nullptr);
    runner::exitNow(0);
}

} // namespace

int main(int argc, char** argv) {
    // One process runs several cases and seeds in turn, each allocating the same GM tensors and
    // simulator state: keep freed memory in the heap (no per-tensor mmap, no trimming) so that the
    // next run reuses pages already mapped instead of faulting fresh ones in.
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    std::string jobPath = argc > 1 ? argv[1] : "job.json";
    toolchain::RunJob job;
    try {
        std::ifstream in(jobPath);
        std::stringstream ss;
        ss << in.rdbuf();
        job = toolchain::runJobFromJson(json::parse(ss.str()));
    } catch (const std::exception& e) {
        std::cerr << "sage-runner: bad job " << jobPath << ": " << e.what() << "\n";
        return 2;
    }
    try {
        return runAll(job);
    } catch (const std::bad_alloc&) {
        return 3;
    }
}
