// Tunables ("knobs"): the integers of a kernel the built-in policy may change.
//
// Two sources. A kernel may declare a constant editable with a marker comment,
//     constexpr uint32_t TILE_LENGTH = 256;  // @tunable tile_length {128, 256, 512, 1024}
// (the allowed set, if written, is respected). Without markers the policy infers the knobs from the
// code itself (inferKnobs): integral constexpr/const constants with a literal value whose name says
// they size tiles, buffers or blocks, integer tiling-struct fields set in SAGE_HOST, and a literal
// block_dim argument of ICPU_RUN_KF. Every edit changes one number, so the diff stays small.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace sage::npu {
struct DeviceProfile;
}

namespace sage::agent {

struct Tunable {
    enum class Origin { Annotated, Constant, HostField, LaunchArg };
    std::string key;       // the marker name, e.g. "tile_length" (inferred: the lower-case name)
    std::string constant;  // the C++ name, e.g. "TILE_LENGTH" ("block_dim" for a literal launch argument)
    long long value = 0;
    std::vector<long long> allowed;  // in the order written; empty = any positive value
    int line = 0;
    Origin origin = Origin::Annotated;
    // What the number sizes: "tile" (elements/rows per tile), "tile_count" (tiles per block: fewer
    // means bigger tiles), "buffer" (buffers per queue), "block" (cores launched), "" (unknown).
    std::string role;
    int column = -1, length = 0;  // span of the number on its line (inferred knobs)
};

std::vector<Tunable> parseTunables(const std::string& source);  // annotated ones only
// Annotated knobs plus the inferred ones (an annotated constant is listed once, as annotated).
std::vector<Tunable> inferKnobs(const std::string& source);
// Finds a tunable by marker key or constant name, case-insensitively.
std::optional<Tunable> findTunable(const std::vector<Tunable>& tunables, const std::string& name);
// The source with the tunable's value replaced (only that number changes).
std::string setTunable(const std::string& source, const Tunable& t, long long value);

// Whether `source` fits the device: the UB its InitBuffer calls reserve is within the usable UB
// (when computable), a block knob does not exceed the device's cores, no constant division that
// was exact in `before` became inexact, and the launch contract holds (a block constant the kernel
// divides its work by changes only together with the launch's block_dim). Empty = feasible;
// otherwise the reason.
std::string infeasibility(const std::string& before, const std::string& source, const npu::DeviceProfile* device);
// The launch-contract part of infeasibility alone (transforms keep the rest themselves).
std::string brokenLaunchContract(const std::string& before, const std::string& source);

} // namespace sage::agent
