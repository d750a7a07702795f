// The simulator's stand-in for the CANN platform description (namespace fe) that host tiling
// functions pass to PlatformAscendC. It carries the figures of the selected device profile.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace fe {

struct PlatFormInfos {
    std::string socVersion = "Ascend910B1";
    uint32_t aivCores = 48, aicCores = 24;
    bool splitArch = true;
    uint64_t ubBytes = 196352, l1Bytes = 524288, l0aBytes = 65536, l0bBytes = 65536, l0cBytes = 131072;
    uint32_t npuArch = 2201;  // the profile's "npu_arch" (__NPU_ARCH__), what GetCurNpuArch() answers
    uint64_t l2Bytes = 201326592, hbmBytes = 68719476736ull;
    std::map<std::string, std::map<std::string, std::string>> res;  // GetPlatformRes(label, key)

    bool GetPlatformRes(const std::string& label, const std::string& key, std::string& value) const {
        auto l = res.find(label);
        if (l == res.end()) return false;
        auto k = l->second.find(key);
        if (k == l->second.end()) return false;
        value = k->second;
        return true;
    }
    bool GetPlatformResWithLock(const std::string& label, const std::string& key, std::string& value) const {
        return GetPlatformRes(label, key, value);
    }
    uint32_t GetCoreNum() const { return splitArch ? aivCores : aicCores; }
};

struct OptionalInfos {
    std::string socVersion;
};

} // namespace fe
