// Which skeleton and API idioms a draft uses: the retrieved draft-stage memory entries first
// (their ids become the draft's adoptedIds), the built-in actions when memory has none that fits
// the device. An action fits when its "requires" feature (data_copy_pad, bfloat16) is present.
#pragma once

#include "sage_memory/RetrievalContext.h"
#include "sage_npu/DeviceProfile.h"

#include <nlohmann/json.hpp>

#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace sage::agent::draft {

// A spec or device the composer cannot draft for; the message names the field.
struct DraftError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class DraftKnowledge {
public:
    DraftKnowledge(const npu::DeviceProfile& device, const std::vector<memory::ScoredExperience>& retrieved);
    // The first fitting action of that type whose `key` field equals `value` ("name" for
    // skeletons, "op" for idioms). Throws DraftError when neither memory nor the built-ins have one.
    const nlohmann::json& skeleton(const std::string& name);
    const nlohmann::json& idiom(const std::string& op);
    const std::vector<int64_t>& adoptedIds() const { return adopted_; }
    const std::vector<nlohmann::json>& used() const { return used_; }

private:
    const nlohmann::json& find(const std::string& type, const std::string& key, const std::string& value);
    bool fits(const nlohmann::json& action) const;
    const npu::DeviceProfile& device_;
    const std::vector<memory::ScoredExperience>& retrieved_;
    std::vector<int64_t> adopted_;
    std::vector<nlohmann::json> used_;
    std::set<std::string> seen_;
};

} // namespace sage::agent::draft
