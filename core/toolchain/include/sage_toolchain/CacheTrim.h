// Keeps sage's cache folders (compiled kernels, precompiled headers, generated inputs, reference
// outputs) within a size budget. Without it they only grow: a developer machine held 55 GB of
// precompiled headers (one 32 MB header per build folder, compiler flag set and op project) after
// a week. The run cache has its own, blob-aware eviction (RunCache, SAGE_RUN_CACHE_MB).
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>

namespace sage::toolchain {

// A size budget in bytes from an environment variable in MiB ("0" keeps nothing that is not in
// use), or `defaultMb` when it is unset or not a number.
uint64_t budgetFromEnvironment(const char* variable, uint64_t defaultMb);

// The most each cache folder may hold: SAGE_CACHE_MB MiB (default 2048).
inline uint64_t cacheFolderBudget() { return budgetFromEnvironment("SAGE_CACHE_MB", 2048); }

// What a cache folder holds: its entries (files or folders directly in it) and their bytes.
struct FolderUsage {
    uint64_t bytes = 0;
    uint64_t entries = 0;
};
FolderUsage cacheFolderUsage(const std::filesystem::path& folder);

// Marks an entry (a file or folder directly in a cache folder) as just used, so that trimming
// drops it last. Errors are ignored: an entry that vanished is simply rebuilt when next needed.
void markUsed(const std::filesystem::path& entry);

// Drops entries of `folder`, least recently used (or stored) first, until it holds at most
// `capacity` bytes. Entries used within `minAge` stay whatever the total (a compile may be about
// to read the header or a runner to load the kernel it was just handed), and so do private work
// entries ("*.tmp.*", removed by removeStaleWorkDirs) and builders' locks ("*.building").
// Never throws.
struct TrimResult {
    uint64_t freed = 0;                                           // bytes
    std::optional<std::filesystem::file_time_type> newestDropped;  // the last use of the newest entry dropped
};
TrimResult trimCacheFolder(const std::filesystem::path& folder, uint64_t capacity,
                           std::chrono::seconds minAge = std::chrono::minutes(10));

// trimCacheFolder(folder, cacheFolderBudget()) when the folder was last trimmed more than
// `interval` ago (its stamp file ".trimmed" says when, for every process): a store costs one stat,
// and a short-lived `sage eval` trims as well as a long agent run does.
void trimCacheFolderSometimes(const std::filesystem::path& folder,
                              std::chrono::seconds interval = std::chrono::minutes(10));

} // namespace sage::toolchain
