// Device profiles from resources/devices/*.json, validated field by field.
#pragma once

#include "sage_npu/DeviceProfile.h"

#include <nlohmann/json_fwd.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace sage::toolchain {

// "<file>: field '<path>': <what is wrong>" — the message names the file, the field and the fix.
struct ProfileError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class DeviceCatalog {
public:
    // Loads every *.json in `dir`, sorted by id. Throws ProfileError on the first bad file.
    static DeviceCatalog loadDirectory(const std::string& dir);
    static npu::DeviceProfile loadFile(const std::string& path);
    static npu::DeviceProfile fromJson(const nlohmann::json& j, const std::string& origin);
    static nlohmann::json summary(const npu::DeviceProfile& p);

    const std::vector<npu::DeviceProfile>& profiles() const { return profiles_; }
    // Throws ProfileError listing the known ids when `id` is unknown.
    const npu::DeviceProfile& get(const std::string& id) const;
    static constexpr const char* kDefaultDevice = "ascend910b1-sim";

private:
    std::vector<npu::DeviceProfile> profiles_;
    std::string dir_;
};

} // namespace sage::toolchain
