// The sandbox's added latency per evaluation: the same program started plainly (fork + exec,
// limits) and inside the bubblewrap namespaces the runner and the compiler use. Each evaluation
// starts one confined runner (all cases in it) and one or two confined compiler drivers, so the
// per-evaluation overhead is about (confined - plain) x (1 + compiles).
// Usage: bench_sandbox [reps] [program]   (default: 50 reps of /usr/bin/true)
#include "sage_toolchain/Process.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

using namespace sage::toolchain;

namespace {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

} // namespace

int main(int argc, char** argv) {
    const int reps = argc > 1 ? std::max(1, std::atoi(argv[1])) : 50;
    const std::string program = argc > 2 ? argv[2] : "/usr/bin/true";
    const auto dir = std::filesystem::temp_directory_path() / "sage-bench-sandbox";
    std::filesystem::create_directories(dir);
    std::vector<double> plain, confined;
    for (int i = 0; i < reps; ++i) {
        for (bool confine : {false, true}) {
            ProcessSpec ps;
            ps.argv = {program};
            ps.workDir = dir.string();
            ps.isolateNetwork = !confine;  // the pre-sandbox runner also made a network namespace
            ps.confine.enabled = confine;
            ps.confine.writable = {dir.string()};
            ps.limits.addressSpaceBytes = 8ull << 30;
            ps.limits.cpuSeconds = 10;
            auto t0 = std::chrono::steady_clock::now();
            auto r = runProcess(ps);
            double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            if (!r.started || r.exitCode != 0) {
                std::fprintf(stderr, "bench_sandbox: %s failed: %s %s\n", program.c_str(), r.startError.c_str(),
                             r.err.c_str());
                return 1;
            }
            (confine ? confined : plain).push_back(s);
        }
    }
    std::filesystem::remove_all(dir);
    std::printf("bench_sandbox: %d reps of %s (median wall time per start)\n", reps, program.c_str());
    std::printf("  plain  (fork+exec, limits, net namespace): %8.2f ms\n", median(plain) * 1e3);
    std::printf("  confined (bwrap namespaces, uid 65534):    %8.2f ms\n", median(confined) * 1e3);
    std::printf("  added per confined process:                %8.2f ms\n", (median(confined) - median(plain)) * 1e3);
    return 0;
}
