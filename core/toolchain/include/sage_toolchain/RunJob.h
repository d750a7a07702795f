// What the parent asks the sandboxed runner to do, and what comes back. Both sides serialise
// through these types, so the protocol lives in one place.
#pragma once

#include "Blob.h"

#include "Diagnostic.h"
#include "RunStatus.h"

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace sage::toolchain {

struct TensorSpec {
    std::string name;
    std::string dtype;  // float16 | bfloat16 | float32 | int32 | int8
    std::vector<int64_t> shape;
    bool output = false;
    std::string file;  // raw little-endian data (input: read; output: written)
};

struct RunSpec {
    std::string id;  // e.g. "small/seed0"
    std::vector<TensorSpec> tensors;
    std::map<std::string, int64_t> dims;
    std::map<std::string, double> attrs;
    bool timeline = false;
    // Mode-specific data: the host tiling request (mode "host_tiling"), or the launch an op's own
    // host tiling computed for this run (tiling_hex, block_dim, tiling_key, workspace_bytes).
    nlohmann::json extra;
};

struct TilingField {
    std::string name;
    std::string type;  // uint32_t int32_t uint64_t int64_t float double uint16_t int16_t uint8_t int8_t
    double value = 0;
};

// Launch when the candidate has no host side (SAGE_HOST): entry symbol, argument order
// (tensor names, "workspace", "tiling"), blockDim, tiling struct fields (resolved per run).
struct LaunchSpec {
    bool present = false;
    std::string entry;
    std::vector<std::string> args;
    std::string blockDim = "1";  // an expression of dims, or "cores"; resolved by the runner
    uint64_t tilingKey = 0;
    std::vector<std::pair<std::string, std::string>> tiling;  // (type, expression) per field, in order
    std::vector<std::string> tilingNames;
    uint64_t workspaceBytes = 1 << 20;
};

struct RunJob {
    std::string mode = "kernel";  // "kernel", "reference" or "host_tiling"
    std::string sharedObject;
    nlohmann::json device;        // the device profile JSON
    LaunchSpec launch;
    std::vector<RunSpec> runs;
    size_t maxEvents = 2'000'000;
};

struct EventRecord {
    uint32_t core;
    uint8_t pipe;
    uint64_t start, end;
    uint16_t op;  // index into LaunchResult::ops
    uint64_t bytes;
    uint32_t repeats;
    uint32_t line;
    int32_t flow;
    uint8_t flowRole;
};

struct CoreRecord {
    uint32_t core = 0, blocks = 0;
    uint64_t cycles = 0;
    uint64_t busy[7] = {};
    uint64_t instructions[7] = {};
};

struct LaunchResult {
    std::string kernel;
    uint32_t blockDim = 0, coresUsed = 0;
    bool cubeKernel = false, aborted = false, eventsTruncated = false;
    uint64_t totalCycles = 0, launchOverheadCycles = 0;
    uint64_t gmBytesRead = 0, gmBytesWritten = 0, vectorRepeats = 0, cubeFractals = 0;
    uint64_t gmFootprintBytes = 0;
    double l2Share = 0;
    std::vector<CoreRecord> cores;
    std::vector<std::string> ops;
    std::vector<EventRecord> events;
    std::vector<Diagnostic> diagnostics;  // simulator diagnostics, file = candidate display name
};

struct RunResult {
    std::string id;
    RunStatus status = RunStatus::NotRun;
    std::string message;
    std::vector<LaunchResult> launches;
    std::map<std::string, Blob> outputs;  // raw bytes per output tensor, mapped from the runner's file
    double seconds = 0;
    nlohmann::json extra;  // mode-specific answer (host tiling: what the op's TilingFunc set)
};

nlohmann::json toJson(const RunJob& j);
RunJob runJobFromJson(const nlohmann::json& j);
nlohmann::json toJson(const LaunchResult& l, bool withEvents);
LaunchResult launchResultFromJson(const nlohmann::json& j);

uint32_t dtypeBytes(const std::string& dtype);  // 0 for an unknown name
uint64_t elementCount(const std::vector<int64_t>& shape);

} // namespace sage::toolchain
