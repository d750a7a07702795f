// TriggerVocabulary: the trigger values the rest of SAGE produces today — op categories of tasks,
// diagnostic kinds of the simulator and toolchain, bottleneck classes of the profiler. The memory
// accepts any string (new kinds may appear before this list knows them); the CLI uses the list to
// warn about likely typos, the seed-pack test and the benchmark to stay within real values.
#pragma once

#include "sage_memory/Experience.h"

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace sage::memory {

struct TriggerVocabulary {
    static constexpr std::array<std::string_view, 9> categories{
        "elementwise", "activation", "unary_math", "reduction", "normalization", "broadcast", "loss", "matmul", "fused"};
    static constexpr std::array<std::string_view, 20> diagnostics{
        "capacity_exceeded", "misaligned_address", "datacopy_not_32b_multiple", "gm_out_of_bounds", "too_many_allocs",
        "alloc_no_free_buffer", "enque_beyond_depth", "deque_empty", "flag_unpaired", "bad_event_id",
        "vector_count_exceeds_tensor", "repeat_exceeds_255", "race_raw", "race_war", "race_waw", "assert_failed",
        "deadlock", "unsupported_dtype", "compile_error", "wrong_result"};
    static constexpr std::array<std::string_view, 9> bottlenecks{
        "mte2_bound", "mte3_bound", "vector_bound", "cube_bound", "scalar_bound", "sync_stall", "load_imbalance",
        "under_parallelized", "launch_bound"};

    // One note per set field whose value is not in the lists above ("diagnostic 'race' is not a known ...").
    static std::vector<std::string> unknownValues(const Trigger& trigger);
};

} // namespace sage::memory
