// The Simulation object, launches (blocks, waves, cores) and diagnostics.
#include "SimImpl.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>

namespace sage::npu {

namespace {
thread_local Simulation* g_active = nullptr;
}

const char* pipeName(int pipe) {
    static const char* names[] = {"S", "V", "M", "MTE1", "MTE2", "MTE3", "FIX", "ALL"};
    return pipe >= 0 && pipe < 8 ? names[pipe] : "?";
}

Simulation::Impl::Impl(DeviceProfile p) : prof(std::move(p)) {}

Simulation::Simulation(DeviceProfile profile) : impl_(std::make_unique<Impl>(std::move(profile))) {}
Simulation::~Simulation() {
    if (g_active == this) g_active = nullptr;
    for (auto& entry : impl_->gmAllocations) std::free(reinterpret_cast<void*>(entry.first));
}
void Simulation::activate() { g_active = this; }
void Simulation::deactivate() {
    if (g_active == this) g_active = nullptr;
}
Simulation* Simulation::active() { return g_active; }
const DeviceProfile& Simulation::profile() const { return impl_->prof; }
void Simulation::setTilingKey(uint64_t key) { impl_->tilingKey = key; }
uint64_t Simulation::tilingKey() const { return impl_->tilingKey; }
void Simulation::setMaxEvents(size_t n) { impl_->maxEvents = n; }
const std::vector<LaunchReport>& Simulation::launches() const { return impl_->launches; }
const std::vector<SimDiagnostic>& Simulation::hostDiagnostics() const { return impl_->hostDiagnostics; }
uint64_t Simulation::gmDeviceAddress(const void* p) const { return impl_->gmDeviceAddress(static_cast<const uint8_t*>(p)); }

Simulation::Impl& activeImpl() {
    if (!g_active)
        throw std::logic_error("kernel API called with no active sage::npu::Simulation (call activate() first)");
    return g_active->impl();
}

CoreContext& Simulation::Impl::ctx() {
    if (!launch || !core)
        throw std::logic_error("kernel API called outside a kernel launch: launch kernels with ICPU_RUN_KF");
    return *core;
}

uint16_t Simulation::Impl::fileId(const char* file) {
    auto it = fileIds.find(file);
    if (it != fileIds.end()) return it->second;
    auto& files = launch->files;
    uint16_t id = 0;
    auto same = std::find(files.begin(), files.end(), std::string(file ? file : ""));
    if (same != files.end()) {
        id = static_cast<uint16_t>(same - files.begin());
    } else {
        files.emplace_back(file ? file : "");
        id = static_cast<uint16_t>(files.size() - 1);
    }
    fileIds[file] = id;
    return id;
}

void Simulation::Impl::report(const char* kind, const std::string& message, const Loc& loc, bool fatal,
                              const char* severity) {
    SimDiagnostic d;
    d.kind = kind;
    d.severity = severity;
    d.message = message;
    d.file = loc.file_name();
    d.line = loc.line();
    if (!launch) {
        hostDiagnostics.push_back(std::move(d));
        if (fatal) throw SimAbort{};
        return;
    }
    d.block = core ? int(core->block) : -1;
    if (reportedOnce.insert({std::string(kind), d.line, 0u}).second) launch->diagnostics.push_back(std::move(d));
    if (fatal) throw SimAbort{};
}

void Simulation::Impl::reportRace(const char* kind, PipeId earlierPipe, uint16_t earlierFile, uint32_t earlierLine,
                                  PipeId pipe, const Loc& loc, Mem mem, uint32_t addr) {
    if (!reportedOnce.insert({std::string(kind), loc.line(), earlierLine}).second) return;
    if (launch->diagnostics.size() > 200) return;
    static const char* what[] = {"reads bytes that", "writes bytes that", "writes bytes that"};
    int w = std::strcmp(kind, "race_raw") == 0 ? 0 : std::strcmp(kind, "race_war") == 0 ? 1 : 2;
    const char* other = w == 1 ? "is still reading" : "is still writing";
    SimDiagnostic d;
    d.kind = kind;
    d.severity = "error";
    d.file = loc.file_name();
    d.line = loc.line();
    d.otherFile = earlierFile < launch->files.size() ? launch->files[earlierFile] : "";
    d.otherLine = earlierLine;
    d.pipe = pipeName(int(pipe));
    d.otherPipe = pipeName(int(earlierPipe));
    d.block = int(core->block);
    d.message = std::string("race: PIPE_") + d.pipe + " at line " + std::to_string(d.line) + " " + what[w] +
                " PIPE_" + d.otherPipe + " (line " + std::to_string(earlierLine) + ") " + other + " (" +
                memName(mem) + " address " + std::to_string(addr) +
                ") with no synchronisation between them. Order them with EnQue/DeQue on a TQue, or "
                "SetFlag<HardEvent::" + d.otherPipe + "_" + d.pipe + ">/WaitFlag, or PipeBarrier<PIPE_ALL>().";
    launch->diagnostics.push_back(std::move(d));
}

void Simulation::Impl::checkLocal(const LocalRef& r, uint64_t bytes, const char* api, const Loc& loc, uint32_t align) {
    Mem m = memOf(r.pos);
    if (r.addr % align != 0)
        report("misaligned_address",
               std::string(api) + ": local address " + std::to_string(r.addr) + " in " + memName(m) +
                   " is not " + std::to_string(align) + "-byte aligned. Offsets into a LocalTensor must be multiples of " +
                   std::to_string(align) + " bytes (" + std::to_string(align) + "/sizeof(T) elements).",
               loc, true);
    if (bytes > r.bytes)
        report("vector_count_exceeds_tensor",
               std::string(api) + " touches " + std::to_string(bytes) + " bytes but the LocalTensor holds only " +
                   std::to_string(r.bytes) + " bytes. Reduce the count or allocate a larger buffer.",
               loc, true);
    if (uint64_t(r.addr) + bytes > ctx().capacity[size_t(m)])
        report("capacity_exceeded",
               std::string(api) + " reaches past the end of " + memName(m) + " (address " + std::to_string(r.addr) +
                   " + " + std::to_string(bytes) + " bytes).",
               loc, true);
}

void Simulation::Impl::checkGm(const uint8_t* p, const uint8_t* limit, uint64_t bytes, const char* api,
                               const Loc& loc) {
    if (bytes == 0) return;
    if (limit && p + bytes > limit)
        report("gm_out_of_bounds",
               std::string(api) + " reaches " + std::to_string(uint64_t((p + bytes) - std::max(p, limit))) +
                   " bytes past the end of the range given to SetGlobalBuffer (it accesses " +
                   std::to_string(bytes) + " bytes, " + std::to_string(limit > p ? limit - p : 0) +
                   " remain). Check the block offset and the tail length.",
               loc, true);
    const auto host = reinterpret_cast<uintptr_t>(p);
    const auto it = gmAllocationAtOrBefore(host);
    const bool known = it != gmAllocations.end();
    if (!known || host + bytes > it->first + it->second.bytes) {
        // Say how far past the end of the allocation the access goes when it starts inside one.
        std::string past;
        if (known && host < it->first + it->second.bytes)
            past = " reaches " + std::to_string(host + bytes - (it->first + it->second.bytes)) +
                   " bytes past the end of its GM allocation (it";
        report("gm_out_of_bounds",
               std::string(api) + (past.empty() ? " accesses " : past + " accesses ") + std::to_string(bytes) +
                   (past.empty() ? " bytes of global memory outside every GM allocation" : " bytes)") +
                   ". Check the block offset, the tail length and the size passed to SetGlobalBuffer.",
               loc, true);
    }
}

std::map<uintptr_t, Simulation::Impl::GmAllocation>::const_iterator
Simulation::Impl::gmAllocationAtOrBefore(uintptr_t host) const {
    auto it = gmAllocations.upper_bound(host);
    return it == gmAllocations.begin() ? gmAllocations.end() : std::prev(it);
}

uint64_t Simulation::Impl::gmDeviceAddress(const uint8_t* p) const {
    const auto host = reinterpret_cast<uintptr_t>(p);
    const auto it = gmAllocationAtOrBefore(host);
    if (it == gmAllocations.end() || host >= it->first + it->second.bytes) return host;
    return it->second.deviceStart + (host - it->first);
}

void Simulation::trackGmWrites(const void* start, uint64_t bytes) {
    impl_->gmWrites.track(static_cast<const uint8_t*>(start), bytes);
}

Simulation::UnaccountedBytes Simulation::unaccountedGmBytes(const void* start) const {
    const auto m = impl_->gmWrites.compare(static_cast<const uint8_t*>(start));
    return {m.bytes, m.firstOffset};
}

namespace rt {

int64_t blockIdx() { return activeImpl().ctx().block; }
int64_t blockNum() { return activeImpl().launch ? activeImpl().launch->blockDim : 1; }
void setTaskType(int type) { activeImpl().taskType = type; }
uint64_t tilingKey() { return activeImpl().tilingKey; }

void kernelAssert(bool ok, const char* expr, const char* message, Loc loc) {
    if (ok) return;
    activeImpl().report("assert_failed",
                        std::string("ASSERT(") + expr + ") failed" + (message ? std::string(": ") + message : ""),
                        loc, true);
}

void* gmAlloc(size_t bytes) {
    auto& s = activeImpl();
    size_t rounded = (std::max<size_t>(bytes, 1) + 63) / 64 * 64;
    void* p = std::aligned_alloc(64, rounded);
    if (!p) throw std::bad_alloc();
    std::memset(p, 0, rounded);
    s.gmAllocations[reinterpret_cast<uintptr_t>(p)] = {bytes, s.nextGmDeviceAddress};
    constexpr uint64_t align = Simulation::Impl::kGmDeviceAlign;
    s.nextGmDeviceAddress += (rounded + align - 1) / align * align;
    return p;
}

void gmFree(void* p) {
    auto& s = activeImpl();
    auto it = s.gmAllocations.find(reinterpret_cast<uintptr_t>(p));
    if (it == s.gmAllocations.end()) {
        s.hostDiagnostics.push_back({"gm_out_of_bounds", "error", "GmFree of a pointer GmAlloc did not return", "", 0,
                                     "", 0, "", "", -1});
        return;
    }
    s.gmAllocations.erase(it);
    std::free(p);
}

void copyTiling(void* dst, size_t bytes, const void* src, Loc loc) {
    auto& s = activeImpl();
    s.checkGm(static_cast<const uint8_t*>(src), nullptr, bytes, "GET_TILING_DATA", loc);
    std::memcpy(dst, src, bytes);
    s.scalarCost(s.ctx().scalarGmMiss + bytes / 8, loc);
}

void launch(const char* kernelName, uint32_t blockDim, void (*body)(void*), void* arg, Loc loc) {
    auto& s = activeImpl();
    if (s.launch) throw std::logic_error("ICPU_RUN_KF called from inside a kernel");
    s.launches.emplace_back();
    LaunchReport& rep = s.launches.back();
    rep.kernel = kernelName;
    rep.blockDim = blockDim;
    rep.launchFile = loc.file_name();
    rep.launchLine = loc.line();
    rep.launchOverheadCycles = s.prof.launchOverheadCycles;
    rep.files.push_back("");
    s.launch = &rep;
    s.fileIds.clear();
    s.reportedOnce.clear();
    s.taskType = -1;
    s.usedCube = false;
    if (blockDim == 0 || blockDim > 65535) {
        s.report("launch_invalid",
                 "blockDim " + std::to_string(blockDim) + " is outside [1, 65535]; launch at least one block", loc,
                 false);
        rep.aborted = true;
        s.launch = nullptr;
        return;
    }
    if (!s.core) s.core = std::make_unique<CoreContext>(s, s.prof);
    for (const auto& [ptr, a] : s.gmAllocations) rep.gmFootprintBytes += a.bytes;
    const GmPath path = gmPathFor(s.prof, rep.gmFootprintBytes);
    rep.l2Share = path.l2Share;
    CoreContext& c = *s.core;
    const int maxCores = std::max(s.prof.vectorCores, s.prof.cubeCores);
    std::vector<uint64_t> coreEnd(static_cast<size_t>(maxCores), 0);
    std::vector<CoreReport> cores(static_cast<size_t>(maxCores));
    for (uint32_t b = 0; b < blockDim && !rep.aborted; ++b) {
        bool cube = s.taskType == 1 || s.usedCube;
        uint32_t ncores = uint32_t(cube ? s.prof.cubeCores : s.prof.vectorCores);
        uint32_t core = b % ncores, wave = b / ncores;
        uint32_t active = std::min(ncores, blockDim - wave * ncores);
        c.reset(b, core, path, active);
        size_t firstEvent = rep.events.size();
        try {
            body(arg);
        } catch (const SimAbort&) {
            rep.aborted = true;
        } catch (const std::bad_alloc&) {
            throw;  // the runner reports "oom" for a kernel's failed allocation
        } catch (const std::exception& e) {
            s.report("kernel_exception", std::string("the kernel threw a C++ exception: ") + e.what(), loc, false);
            rep.aborted = true;
        }
        s.closeScalarSegment();
        for (size_t f = 0; f < c.flags.size(); ++f) {
            if (!c.flags[f].set) continue;
            int hw = int(f / 8), id = int(f % 8);
            std::string ev = std::string(pipeName(hw / 8)) + "_" + pipeName(hw % 8);
            SimDiagnostic d{"flag_unpaired", "warning",
                            "SetFlag<HardEvent::" + ev + ">(EVENT_ID" + std::to_string(id) +
                                ") was never matched by a WaitFlag: pair every SetFlag with a WaitFlag of the same "
                                "event and id",
                            c.flags[f].file, c.flags[f].line, "", 0, "", "", int(b)};
            if (s.reportedOnce.insert({d.kind, d.line, 0u}).second) rep.diagnostics.push_back(d);
        }
        uint64_t offset = coreEnd[core];
        for (size_t e = firstEvent; e < rep.events.size(); ++e) {
            rep.events[e].start += offset;
            rep.events[e].end += offset;
            rep.events[e].core = core;
        }
        coreEnd[core] = offset + c.endCycle();
        CoreReport& cr = cores[core];
        cr.core = core;
        cr.blocks++;
        cr.cycles = coreEnd[core];
        for (int p = 0; p < kPipeCount; ++p) {
            cr.pipes.busy[p] += c.pipes[size_t(p)].busy;
            cr.pipes.instructions[p] += c.pipes[size_t(p)].instructions;
        }
    }
    rep.cubeKernel = s.taskType == 1 || s.usedCube;
    uint64_t slowest = 0;
    for (auto& cr : cores)
        if (cr.blocks) {
            rep.cores.push_back(cr);
            slowest = std::max(slowest, cr.cycles);
        }
    rep.coresUsed = uint32_t(rep.cores.size());
    rep.totalCycles = rep.launchOverheadCycles + slowest;
    s.launch = nullptr;
}

} // namespace rt
} // namespace sage::npu
