#include "sage_eval/RunPool.h"

#include <algorithm>
#include <future>
#include <numeric>
#include <sched.h>
#include <thread>

namespace sage::eval {

size_t availableCores() {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
    return std::max(1u, std::thread::hardware_concurrency());
}

toolchain::SandboxReport runSpread(const toolchain::Sandbox& sandbox, const toolchain::RunJob& job,
                                   const std::vector<toolchain::SandboxInput>& inputs,
                                   const toolchain::SandboxOptions& opts, size_t processes) {
    processes = std::clamp<size_t>(processes, 1, inputs.size());
    if (processes <= 1) return sandbox.run(job, inputs, opts);
    // Largest runs first onto the least loaded process.
    std::vector<uint64_t> weight(inputs.size(), 0);
    for (size_t i = 0; i < inputs.size(); ++i)
        for (const auto& t : inputs[i].spec.tensors) weight[i] += toolchain::elementCount(t.shape);
    std::vector<size_t> order(inputs.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return weight[a] > weight[b]; });
    std::vector<std::vector<size_t>> groups(processes);
    std::vector<uint64_t> load(processes, 0);
    for (size_t i : order) {
        size_t g = size_t(std::min_element(load.begin(), load.end()) - load.begin());
        groups[g].push_back(i);
        load[g] += weight[i] + 1;
    }
    std::vector<std::future<toolchain::SandboxReport>> futures;
    for (auto& g : groups) {
        std::sort(g.begin(), g.end());  // each process runs its share in the evaluation's order
        std::vector<toolchain::SandboxInput> part;
        for (size_t i : g) part.push_back(inputs[i]);
        futures.push_back(std::async(std::launch::async, [&sandbox, &job, &opts, part = std::move(part)] {
            return sandbox.run(job, part, opts);
        }));
    }
    toolchain::SandboxReport report;
    report.runs.resize(inputs.size());
    report.networkIsolated = true;
    std::exception_ptr failure;
    for (size_t g = 0; g < groups.size(); ++g) {
        try {
            auto part = futures[g].get();
            report.networkIsolated &= part.networkIsolated;
            report.seconds = std::max(report.seconds, part.seconds);
            if (!part.stderrTail.empty()) report.stderrTail += part.stderrTail;
            for (size_t k = 0; k < groups[g].size() && k < part.runs.size(); ++k)
                report.runs[groups[g][k]] = std::move(part.runs[k]);
        } catch (...) {
            if (!failure) failure = std::current_exception();  // still wait for the other processes
        }
    }
    if (failure) std::rethrow_exception(failure);
    return report;
}

} // namespace sage::eval
