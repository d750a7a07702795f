// Results of sandboxed kernel runs, kept on disk under <cache>/runs/<key>/ and keyed by every
// input that determines them: the compiled binary's bytes, the simulator runtime (libsage_npu.so
// and sage-runner), the device profile, the launch description and the run's tensors (input
// content keys, dims, attrs, timeline flag). An identical (binary, inputs, device) triple is
// therefore never simulated twice; a cached result is the runner's result as it was written.
// Only deterministic outcomes are stored (ok, race, sim_error), never timeouts, crashes or
// cancellations. Output bytes are stored once per content (<cache>/runs/blobs/<XXH3-128>.bin):
// most optimisation moves change the schedule, not the values, so candidates of one task and
// their seeds produce the same outputs again and again (in a 15-task bench, 976 outputs held
// 148 distinct contents). Timelines are blobs too. The cache holds at most SAGE_RUN_CACHE_MB
// megabytes of blobs (default 1024), dropping the oldest first, and with them the entries that
// named them; entries of an earlier layout are swept once, when the layout changes.
#pragma once

#include "sage_toolchain/Blob.h"
#include "sage_toolchain/CacheTrim.h"
#include "sage_toolchain/RunJob.h"
#include "sage_toolchain/Sandbox.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace sage::eval {

class RunCache {
public:
    explicit RunCache(std::string dir) : dir_(std::move(dir)) {}

    struct Entry {
        toolchain::RunResult result;                      // outputs left empty: see `outputs`
        std::map<std::string, toolchain::Blob> outputs;  // raw bytes per output tensor (mapped)
        bool networkIsolated = false;                    // whether the run that produced it was
    };

    // `binaryDigest` names the kernel binary and the runtime it runs on; `job` without runs.
    static std::string key(const std::string& binaryDigest, const toolchain::RunJob& job,
                           const toolchain::SandboxInput& in);
    static bool cacheable(toolchain::RunStatus status);
    std::optional<Entry> load(const std::string& key) const;
    // A new private folder inside the cache for the runner's output files
    // (SandboxOptions::keepOutputsIn), so that store() can hard-link them; empty if it cannot be
    // made. The caller removes it once the outputs are stored.
    std::string outputsStagingDir() const;
    // Best effort: a cache that cannot be written only costs a later re-run.
    void store(const std::string& key, const toolchain::RunResult& result,
               const std::map<std::string, toolchain::Blob>& outputs, bool networkIsolated) const;
    // Drops the oldest outputs beyond SAGE_RUN_CACHE_MB now, with the entries that name them
    // (store() does this on every 16th store; `sage cache --trim` on request).
    void trim() const;
    // What the cache holds on disk: every byte (blobs included) and its entries (one per key).
    toolchain::FolderUsage usage() const;
    // SAGE_RUN_CACHE_MB (default 1024) in bytes: the most the outputs may hold.
    static uint64_t budgetBytes();

private:
    std::string dir_;
};

} // namespace sage::eval
