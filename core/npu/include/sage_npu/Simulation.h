// Host-side API of the simulated device: configure it with a profile, run kernel launches
// (ICPU_RUN_KF inside a candidate calls into the active Simulation), read back reports.
#pragma once

#include "DeviceProfile.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace sage::npu {

// A problem found while running a kernel, always tied to a kernel source line.
struct SimDiagnostic {
    std::string kind;      // e.g. "capacity_exceeded", "race_raw" (docs/kernel-api.md lists them)
    std::string severity;  // "error" or "warning"
    std::string message;   // what is wrong and what to do
    std::string file;
    uint32_t line = 0;
    std::string otherFile;  // races: the other access
    uint32_t otherLine = 0;
    std::string pipe, otherPipe;
    int block = -1;
};

// One instruction (or merged run of scalar work) on one pipe of one core.
struct TimelineEvent {
    uint32_t core = 0;
    uint8_t pipe = 0;         // PipeId
    uint64_t start = 0;       // cycles from kernel start
    uint64_t end = 0;
    const char* op = "";      // static string
    uint64_t bytes = 0;       // moved bytes (DMA) or touched bytes (vector)
    uint32_t repeats = 0;     // vector repeats / cube fractals
    uint16_t fileId = 0;      // index into LaunchReport::files
    uint32_t line = 0;
    int32_t flowId = -1;      // SetFlag/EnQue -> WaitFlag/DeQue pairs share an id (>= 0)
    uint8_t flowRole = 0;     // 0 none, 1 source, 2 target
};

struct PipeTotals {
    uint64_t busy[7] = {0, 0, 0, 0, 0, 0, 0};  // union of event intervals per PipeId
    uint64_t instructions[7] = {0, 0, 0, 0, 0, 0, 0};
};

struct CoreReport {
    uint32_t core = 0;
    uint32_t blocks = 0;
    uint64_t cycles = 0;  // when the last pipe of the core finished
    PipeTotals pipes;
};

struct LaunchReport {
    std::string kernel;
    uint32_t blockDim = 0;
    uint32_t coresUsed = 0;
    bool cubeKernel = false;
    uint64_t totalCycles = 0;  // launch overhead + slowest core
    uint64_t launchOverheadCycles = 0;
    uint64_t gmBytesRead = 0, gmBytesWritten = 0;
    uint64_t gmFootprintBytes = 0;  // every live GM allocation at launch
    double l2Share = 0;             // of the footprint found in L2 (0 without an L2 model)
    uint64_t vectorRepeats = 0, cubeFractals = 0;
    std::vector<CoreReport> cores;
    std::vector<TimelineEvent> events;
    bool eventsTruncated = false;
    std::vector<std::string> files;  // fileId -> path as the compiler saw it
    std::vector<SimDiagnostic> diagnostics;
    bool aborted = false;  // a fatal simulator error stopped the launch
    std::string launchFile;
    uint32_t launchLine = 0;
};

const char* pipeName(int pipe);  // "S", "V", "M", "MTE1", "MTE2", "MTE3", "FIX"

class Simulation {
public:
    explicit Simulation(DeviceProfile profile);
    ~Simulation();
    Simulation(const Simulation&) = delete;
    Simulation& operator=(const Simulation&) = delete;

    // Makes this the simulation that kernel API calls on this thread talk to.
    void activate();
    void deactivate();
    static Simulation* active();

    const DeviceProfile& profile() const;
    void setTilingKey(uint64_t key);
    uint64_t tilingKey() const;
    void setMaxEvents(size_t n);  // per launch; further events are counted, not stored

    const std::vector<LaunchReport>& launches() const;
    // Diagnostics raised outside any launch (e.g. a bad GmFree).
    const std::vector<SimDiagnostic>& hostDiagnostics() const;
    // The simulated device address of a byte of GM: GmAlloc hands out 512-byte-aligned device
    // addresses in allocation order, so address-dependent timing (the scalar data cache) does not
    // vary with where the host's allocator put the buffers. Outside every allocation: the host address.
    uint64_t gmDeviceAddress(const void* p) const;
    // Results come from the device: a GM region tracked here (a run's output tensor) keeps a
    // shadow of what simulated instructions (DataCopy, SetValue, Fixpipe, Matmul...) wrote to it.
    // `unaccountedGmBytes` counts the bytes that differ from it at the end — written by plain
    // C++ through a GM pointer — and where the first one is.
    void trackGmWrites(const void* start, uint64_t bytes);
    struct UnaccountedBytes {
        uint64_t count = 0, firstOffset = 0;
    };
    UnaccountedBytes unaccountedGmBytes(const void* start) const;

    struct Impl;
    Impl& impl() { return *impl_; }

private:
    std::unique_ptr<Impl> impl_;
};

} // namespace sage::npu
