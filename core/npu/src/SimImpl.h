// Simulation::Impl — the state shared by all runtime entry points, and the helpers they use
// to report diagnostics, schedule instructions on pipes and check races.
#pragma once

#include "CoreContext.h"
#include "GmWriteLedger.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>

namespace sage::npu {

struct IssueResult {
    uint64_t start = 0, done = 0;
    uint32_t epoch = 0;
};

struct Simulation::Impl {
    explicit Impl(DeviceProfile p);

    DeviceProfile prof;
    uint64_t tilingKey = 0;
    size_t maxEvents = 4'000'000;
    std::vector<LaunchReport> launches;
    std::vector<SimDiagnostic> hostDiagnostics;
    // A GM allocation and its device address, handed out in allocation order: anything
    // address-dependent in the timing model (the scalar data cache) then gives the same cycles on
    // every run, whatever addresses the host's allocator (and ASLR) return.
    struct GmAllocation {
        size_t bytes = 0;
        uint64_t deviceStart = 0;
    };
    std::map<uintptr_t, GmAllocation> gmAllocations;  // by host start
    static constexpr uint64_t kGmDeviceBase = 1ull << 32, kGmDeviceAlign = 512;
    uint64_t nextGmDeviceAddress = kGmDeviceBase;
    uint64_t gmDeviceAddress(const uint8_t* p) const;
    GmWriteLedger gmWrites;  // what simulated instructions wrote to the tracked GM regions  // the host address itself outside every allocation
    // The allocation starting at or before host address `host` (end() when none does); the
    // address is inside it when it is below first + bytes.
    std::map<uintptr_t, GmAllocation>::const_iterator gmAllocationAtOrBefore(uintptr_t host) const;

    // Current launch.
    LaunchReport* launch = nullptr;
    std::unique_ptr<CoreContext> core;
    int taskType = -1;
    bool usedCube = false;
    int32_t nextFlow = 0;
    std::unordered_map<const char*, uint16_t> fileIds;
    std::set<std::tuple<std::string, uint32_t, uint32_t>> reportedOnce;

    CoreContext& ctx();  // throws a host error when called outside a launch
    uint16_t fileId(const char* file);

    // Diagnostics. fatal == true records then throws SimAbort.
    void report(const char* kind, const std::string& message, const Loc& loc, bool fatal,
                const char* severity = "error");
    void reportRace(const char* kind, PipeId earlierPipe, uint16_t earlierFile, uint32_t earlierLine, PipeId pipe,
                    const Loc& loc, Mem mem, uint32_t addr);

    // Timing. `portCycles` > 0 means the instruction moves data through the core's GM port.
    IssueResult issue(PipeId pipe, const char* op, uint64_t occupancy, uint64_t latency, uint64_t portCycles,
                      uint64_t bytes, uint32_t repeats, const Loc& loc, int32_t flowId = -1, uint8_t flowRole = 0);
    void scalarCost(uint64_t cycles, const Loc& loc);
    void closeScalarSegment();
    void recordEvent(uint8_t pipe, uint64_t start, uint64_t end, const char* op, uint64_t bytes, uint32_t repeats,
                     uint16_t file, uint32_t line, int32_t flowId, uint8_t flowRole);

    // Race detection on local memory. Pipe accesses check; scalar accesses wait (auto-sync).
    void access(PipeId pipe, const LocalRef& r, uint32_t bytes, bool write, const IssueResult& at, const Loc& loc);
    void scalarAccess(const LocalRef& r, uint64_t offset, uint32_t bytes, bool write, const Loc& loc);
    void reportUninitialisedRead(PipeId pipe, uint32_t addr, const Loc& loc);

    // Checks shared by the API entry points.
    void checkLocal(const LocalRef& r, uint64_t bytes, const char* api, const Loc& loc, uint32_t align = 32);
    void checkGm(const uint8_t* p, const uint8_t* limit, uint64_t bytes, const char* api, const Loc& loc);

    bool splitArch() const { return prof.splitArch; }
};

Simulation::Impl& activeImpl();  // throws when no Simulation is active on this thread

} // namespace sage::npu
