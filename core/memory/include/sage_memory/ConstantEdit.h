// ConstantEdit: evidence for an entry whose action edits one integral constant
// ({"type":"set_tunable"|"set_constant","name":N,"value":V}, "scale_*" with "factor", "step_*" with
// "direction"). The action says what the edit must look like, so the diff is read for the
// constant's declaration (`NAME = 123`, or the `// @tunable key` marker on the line) in the removed
// and in the added lines, and the entry is evidenced only when the change goes its way:
//   set to V         new value == V (and the old one was not V)
//   set to max/cores new value is the largest of the `{...}` allowed list, or above the old value
//   set to min       the smallest allowed value, or below the old value
//   scale f > 1 / up the value rose;   scale f < 1 / down  the value fell.
// Lowering BLOCK_DIM is no evidence for "raise BLOCK_DIM", whatever the entry's pattern says.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace sage::memory {

class ConstantEdit {
public:
    // True when `action` is a constant edit this class judges (it has a type above and a name).
    static bool isConstantEdit(const nlohmann::json& action);
    // Whether the change from `removed` to `added` lines carries out `action`; `detail` says what
    // was seen ("BLOCK_DIM 8 -> 2, the action wants it raised").
    static bool evidenced(const nlohmann::json& action, std::string_view removed, std::string_view added,
                          std::string* detail = nullptr);

    struct Declaration {
        long long value = 0;
        std::vector<long long> allowed;  // from a `{a, b, c}` list on the line, if any
    };
    // The first line of `lines` that declares `name` (identifier or @tunable key, case-insensitive).
    static std::optional<Declaration> find(std::string_view lines, std::string_view name);
};

} // namespace sage::memory
