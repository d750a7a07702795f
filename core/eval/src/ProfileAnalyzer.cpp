#include "sage_eval/ProfileAnalyzer.h"

#include "sage_npu/L2Model.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

namespace sage::eval {
namespace {
enum Pipe { S = 0, V = 1, M = 2, MTE1 = 3, MTE2 = 4, MTE3 = 5, FIX = 6 };
}

std::string adviceFor(const std::string& b) {
    static const std::map<std::string, std::string> advice = {
        {"launch_bound", "Launch overhead dominates: the problem is tiny for the device; fuse work or process more per launch."},
        {"load_imbalance", "Some cores do much more work than others: split the elements evenly across blocks (give the tail to several blocks)."},
        {"under_parallelized", "Few cores are busy: raise blockDim (GetBlockNum/GetBlockIdx split) so more cores share the work."},
        {"sync_stall", "Pipes spend most of their time waiting on each other: double-buffer the queues (InitBuffer(que, 2, bytes)) so copy and compute overlap."},
        {"mte2_bound", "GM->UB copies dominate: use larger tiles, double buffering, and avoid reading the same data twice."},
        {"mte3_bound", "UB->GM copies dominate: write larger contiguous tiles and avoid redundant stores."},
        {"vector_bound", "The vector unit is the bottleneck: fuse ops, use larger counts per instruction, prefer cheap ops (Muls over Div)."},
        {"cube_bound", "The cube unit is the bottleneck: the kernel is near compute peak; use more cube cores or larger fractal tiles."},
        {"scalar_bound", "The scalar unit dominates: replace GetValue/SetValue loops by vector instructions on whole tiles."},
    };
    auto it = advice.find(b);
    return it == advice.end() ? "" : it->second;
}

ProfileSection analyzeProfile(const std::vector<toolchain::LaunchResult>& launches, const npu::DeviceProfile& dev,
                              uint64_t compulsoryBytes, const std::string& caseName) {
    ProfileSection p;
    if (launches.empty()) return p;
    p.present = true;
    p.caseName = caseName;
    p.clockMhz = dev.clockMhz;
    p.launches = launches;
    uint64_t busy[7] = {}, coreSpan = 0, overhead = 0, repeats = 0, fractals = 0;
    std::map<uint32_t, uint64_t> perCore;
    for (const auto& l : launches) {
        p.totalCycles += l.totalCycles;
        overhead += l.launchOverheadCycles;
        repeats += l.vectorRepeats;
        fractals += l.cubeFractals;
        p.blockDim = std::max(p.blockDim, l.blockDim);
        p.coresUsed = std::max(p.coresUsed, l.coresUsed);
        for (const auto& c : l.cores) {
            for (int i = 0; i < 7; ++i) busy[i] += c.busy[i];
            coreSpan += c.cycles;
            perCore[c.core] += c.cycles;
        }
    }
    p.timeUs = double(p.totalCycles) / dev.clockMhz;
    auto ratio = [&](int pipe) { return coreSpan ? double(busy[pipe]) / double(coreSpan) : 0.0; };
    p.pipeRatios = {{"vec_ratio", ratio(V)},   {"mac_ratio", ratio(M)},   {"scalar_ratio", ratio(S)},
                    {"mte1_ratio", ratio(MTE1)}, {"mte2_ratio", ratio(MTE2)}, {"mte3_ratio", ratio(MTE3)},
                    {"fixpipe_ratio", ratio(FIX)}};
    static const char* names[] = {"scalar", "vec", "mac", "mte1", "mte2", "mte3", "fixpipe"};
    for (int i = 0; i < 7; ++i) p.pipeCycles[names[i]] = busy[i];
    double compute = std::max(p.pipeRatios["mac_ratio"], p.pipeRatios["vec_ratio"]);
    p.memoryBound = std::min(1000.0, p.pipeRatios["mte2_ratio"] / std::max(compute, 1e-3));
    for (auto& [core, cycles] : perCore) p.coreCycles.push_back(cycles);
    double mean = p.coreCycles.empty() ? 0
                                       : double(std::accumulate(p.coreCycles.begin(), p.coreCycles.end(), uint64_t(0))) /
                                             double(p.coreCycles.size());
    double maxCore = p.coreCycles.empty() ? 0 : double(*std::max_element(p.coreCycles.begin(), p.coreCycles.end()));
    p.imbalance = mean > 0 ? maxCore / mean - 1.0 : 0;
    p.pipeOverlap = coreSpan ? double(std::accumulate(busy, busy + 7, uint64_t(0))) / double(coreSpan) : 0;

    // Roofline: the least time the device could need for this work, on all of its cores.
    p.gmBytes = compulsoryBytes;
    bool cube = std::any_of(launches.begin(), launches.end(), [](const auto& l) { return l.cubeKernel; });
    // The chip's GM rate as the launches met it: a footprint the L2 holds moves faster than HBM.
    double chipRate = dev.chipGmBytesPerCycle;
    for (const auto& l : launches)
        chipRate = std::max(chipRate, npu::gmPathFor(dev, l.gmFootprintBytes).chipBytesPerCycle);
    double memCycles = double(compulsoryBytes) / chipRate;
    double vecCycles = double(repeats) * dev.cyclesPerRepeatSimple / double(dev.vectorCores);
    double cubeCycles = double(fractals) * dev.cubeCyclesPerFractal / double(dev.cubeCores);
    p.rooflineCycles = uint64_t(std::ceil(std::max({memCycles, vecCycles, cubeCycles}))) + overhead;
    p.rooflineFraction = p.totalCycles ? std::min(1.0, double(p.rooflineCycles) / double(p.totalCycles)) : 0;

    // Bottleneck, in order of what a tuner should fix first.
    const int available = cube ? dev.cubeCores : dev.vectorCores;
    const double perCoreBw = cube ? dev.gmToL1BytesPerCycle : dev.gmToUbBytesPerCycle;
    const bool memoryHeavy = p.memoryBound >= 1.0;
    const double maxRatio = std::max({ratio(V), ratio(M), ratio(S), ratio(MTE1), ratio(MTE2), ratio(MTE3), ratio(FIX)});
    if (double(overhead) >= 0.5 * double(p.totalCycles)) p.bottleneck = "launch_bound";
    else if (p.coresUsed > 1 && p.imbalance > 0.3) p.bottleneck = "load_imbalance";
    else if (int(p.coresUsed) < available &&
             (!memoryHeavy || double(p.coresUsed) * perCoreBw < 0.9 * chipRate))
        p.bottleneck = "under_parallelized";
    else if (maxRatio < 0.5) p.bottleneck = "sync_stall";
    else {
        std::pair<double, const char*> best{ratio(MTE2), "mte2_bound"};
        for (auto c : {std::pair<double, const char*>{ratio(MTE3), "mte3_bound"}, {ratio(V), "vector_bound"},
                       {ratio(M), "cube_bound"}, {ratio(S), "scalar_bound"}})
            if (c.first > best.first) best = c;
        p.bottleneck = best.second;
    }
    p.advice = adviceFor(p.bottleneck);

    std::map<int, LineCost> byLine;
    for (const auto& l : launches)
        for (const auto& e : l.events) {
            if (e.line == 0) continue;
            auto& lc = byLine[int(e.line)];
            lc.line = int(e.line);
            lc.cycles += e.end - e.start;
            lc.events++;
        }
    for (auto& [line, lc] : byLine) p.lines.push_back(lc);
    std::sort(p.lines.begin(), p.lines.end(), [](const LineCost& a, const LineCost& b) { return a.cycles > b.cycles; });
    return p;
}

bool rejectImpossibleResult(toolchain::RunResult& run, const toolchain::RunSpec& spec, const npu::DeviceProfile& device) {
    if (!toolchain::ranToEnd(run.status) || run.launches.empty()) return false;
    uint64_t bytes = 0;
    for (const auto& t : spec.tensors) bytes += toolchain::elementCount(t.shape) * toolchain::dtypeBytes(t.dtype);
    const ProfileSection p = analyzeProfile(run.launches, device, bytes, spec.id);
    if (p.totalCycles >= p.rooflineCycles) return false;
    run.status = toolchain::RunStatus::ImpossibleResult;
    run.message = "the run reports " + std::to_string(p.totalCycles) + " cycles, below the roofline bound of " +
                  std::to_string(p.rooflineCycles) + " cycles for its " + std::to_string(bytes) +
                  " bytes of tensors: the result did not come from the simulated device";
    return true;
}

} // namespace sage::eval
