#include "draft/DraftKnowledge.h"

#include "sage_agent/KernelComposer.h"

#include <algorithm>

namespace sage::agent {
using nlohmann::json;

const std::vector<json>& builtinDraftActions() {
    // Order matters: the first fitting entry of a key wins (DataCopyPad before the overlap window).
    static const std::vector<json> actions = [] {
        std::vector<json> a = {
            {{"type", "skeleton"}, {"name", "elementwise"}, {"tile_bytes", 16384}, {"buffer_num", 1}},
            {{"type", "skeleton"}, {"name", "rowwise"}, {"rows_per_tile", 1}},
            {{"type", "skeleton"}, {"name", "reduce_all"}, {"tile_bytes", 16384}},
            {{"type", "skeleton"}, {"name", "axis"}},
            {{"type", "skeleton"}, {"name", "matmul"}, {"tile_m", 128}, {"tile_n", 128}, {"tile_k", 128}},
            {{"type", "api_idiom"}, {"op", "tail_copy"}, {"method", "datacopy_pad"}, {"requires", "data_copy_pad"}},
            {{"type", "api_idiom"}, {"op", "tail_copy"}, {"method", "overlap_window"}},
            {{"type", "api_idiom"}, {"op", "bfloat16_io"}, {"method", "cast_float32"}, {"requires", "bfloat16"}},
            {{"type", "api_idiom"}, {"op", "bfloat16_io"}, {"method", "int16_bits"}},
            {{"type", "api_idiom"}, {"op", "row_reduce"}, {"method", "reduce_count_form"}},
        };
        const std::vector<std::pair<std::string, std::string>> unary = {
            {"exp", "Exp"},        {"ln", "Ln"},     {"sqrt", "Sqrt"},       {"rsqrt", "Rsqrt"},
            {"recip", "Reciprocal"}, {"abs", "Abs"}, {"relu", "Relu"},       {"sigmoid", "Sigmoid"},
            {"tanh", "Tanh"},      {"gelu", "Gelu"}, {"silu", "Silu"},       {"softplus", "Softplus"},
            {"erf", "Erf"}};
        for (const auto& [op, api] : unary) a.push_back({{"type", "api_idiom"}, {"op", op}, {"api", api}});
        return a;
    }();
    return actions;
}

namespace draft {

DraftKnowledge::DraftKnowledge(const npu::DeviceProfile& device, const std::vector<memory::ScoredExperience>& retrieved)
    : device_(device), retrieved_(retrieved) {}

bool DraftKnowledge::fits(const json& a) const {
    if (!a.contains("requires")) return true;
    if (!a["requires"].is_string()) return false;
    const std::string r = a["requires"].get<std::string>();
    if (r == "data_copy_pad") return device_.dataCopyPad;
    if (r == "bfloat16") return device_.bfloat16;
    return false;  // a feature this composer does not know: do not use it
}

const json& DraftKnowledge::find(const std::string& type, const std::string& key, const std::string& value) {
    auto matches = [&](const json& a) {
        return a.is_object() && a.value("type", "") == type && a.contains(key) && a[key].is_string() &&
               a[key].get<std::string>() == value && fits(a);
    };
    const std::string seenKey = type + "/" + value;
    for (const auto& r : retrieved_) {
        const auto& e = r.experience;
        if (e.stage != memory::Stage::Draft || !matches(e.action)) continue;
        if (seen_.insert(seenKey).second) {
            if (std::find(adopted_.begin(), adopted_.end(), e.id) == adopted_.end()) adopted_.push_back(e.id);
            used_.push_back(e.action);
        }
        return e.action;
    }
    for (const auto& a : builtinDraftActions())
        if (matches(a)) {
            if (seen_.insert(seenKey).second) used_.push_back(a);
            return a;
        }
    throw DraftError("no " + type + " '" + value + "' fits device " + device_.id);
}

const json& DraftKnowledge::skeleton(const std::string& name) { return find("skeleton", "name", name); }
const json& DraftKnowledge::idiom(const std::string& op) { return find("api_idiom", "op", op); }

} // namespace draft
} // namespace sage::agent
