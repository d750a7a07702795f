// Work folders an evaluation leaves behind when its process is killed (SIGKILL, a crash, a power
// cut): the runner's private directories (<tmp>/sage-run-*), the compiler's and the run cache's
// half-written entries (<cache>/kernels|runs/<key>.tmp.<pid>.<n>, and the file
// <cache>/runs/blobs/<hash>.tmp.<pid>.<n>) and the runner outputs kept for the run cache
// (<cache>/runs/outputs.tmp.<pid>.<n>). A finished evaluation removes its own; these are
// the leftovers of dead ones, removed the next time an agent run starts.
#pragma once

#include "ToolPaths.h"

#include <chrono>
#include <cstddef>
#include <filesystem>

namespace sage::toolchain {

// Removes compile work folders whose owning process is gone, and runner folders (which carry no
// owner) untouched for at least `runnerMinAge` — longer than any live evaluation can take.
// Only folders owned by the calling user are touched. Returns how many were removed; errors
// (a folder vanishing meanwhile, no permission) are skipped, never thrown.
size_t removeStaleWorkDirs(const ToolPaths& paths, std::chrono::seconds runnerMinAge);

// Whether a file or folder is a private work entry ("<key>.tmp.<pid>.<n>"): in flight while its
// owner lives, a leftover once it is gone; never a cache entry to load, trim or sweep.
bool isWorkEntry(const std::filesystem::path& p);

// Whether a process with this id exists and has not ended (a zombie counts as ended).
bool processAlive(long pid);

} // namespace sage::toolchain
