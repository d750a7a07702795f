// The simulator's stand-in for the CANN host header tiling/platform/platform_ascendc.h:
// PlatformAscendC answers core counts, local memory sizes and the SoC from the platform
// description, which `sage op` fills from the selected device profile. op_host tiling headers
// include it next to their BEGIN_TILING_DATA_DEF.
#pragma once

#include "platform/platform_info.h"
#include "platform/soc_spec.h"
#include "register/tilingdata_base.h"

#include <cstdint>
#include <string>

namespace platform_ascendc {

enum class CoreMemType { L0_A = 0, L0_B = 1, L0_C = 2, L1 = 3, L2 = 4, UB = 5, HBM = 6, RESERVED };
enum class SocVersion { ASCEND910 = 0, ASCEND910B, ASCEND910_93, ASCEND310P, ASCEND310B, ASCEND610, ASCEND910_95,
                        KIRINX90, KIRIN9030, RESERVED_VERSION = 99999 };

class PlatformAscendC {
public:
    PlatformAscendC() = default;
    explicit PlatformAscendC(const fe::PlatFormInfos* info) : info_(info ? *info : fe::PlatFormInfos{}) {}
    uint32_t GetCoreNum() const { return info_.GetCoreNum(); }
    uint32_t GetCoreNumAiv() const { return info_.aivCores; }
    uint32_t GetCoreNumAic() const { return info_.aicCores; }
    uint32_t GetCoreNumVector() const { return info_.splitArch ? 0 : info_.aivCores; }
    void GetCoreMemSize(CoreMemType t, uint64_t& size) const {
        switch (t) {
        case CoreMemType::UB: size = info_.ubBytes; break;
        case CoreMemType::L1: size = info_.l1Bytes; break;
        case CoreMemType::L0_A: size = info_.l0aBytes; break;
        case CoreMemType::L0_B: size = info_.l0bBytes; break;
        case CoreMemType::L0_C: size = info_.l0cBytes; break;
        case CoreMemType::L2: size = info_.l2Bytes; break;
        case CoreMemType::HBM: size = info_.hbmBytes; break;
        default: size = 0;
        }
    }
    void GetCoreMemBw(CoreMemType, uint64_t& bw) const { bw = 0; }
    // The architecture ops-nn's tilings branch on (NpuArch::DAV_2201 for a 910B), from the profile.
    NpuArch GetCurNpuArch() const { return NpuArchOf(info_.npuArch); }
    SocVersion GetSocVersion() const {
        const std::string& s = info_.socVersion;
        if (s.rfind("Ascend910B", 0) == 0) return SocVersion::ASCEND910B;
        if (s.rfind("Ascend910_93", 0) == 0) return SocVersion::ASCEND910_93;
        if (s.rfind("Ascend310P", 0) == 0) return SocVersion::ASCEND310P;
        if (s.rfind("Ascend310B", 0) == 0) return SocVersion::ASCEND310B;
        if (s.rfind("Ascend910", 0) == 0) return SocVersion::ASCEND910;
        return SocVersion::RESERVED_VERSION;
    }
    // The simulator's library APIs need no system workspace (see GetSysWorkSpacePtr).
    uint32_t GetLibApiWorkSpaceSize() const { return 0; }
    uint32_t CalcTschBlockDim(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const {
        if (aicCoreNum == 0 || aivCoreNum == 0 || aicCoreNum > aivCoreNum) return sliceNum;
        uint32_t ratio = aivCoreNum / aicCoreNum;
        return (sliceNum + ratio - 1) / ratio;
    }

private:
    fe::PlatFormInfos info_;
};

// The platform of the device a host program runs for (an `.asc` program's main). `sage op`
// describes the selected device profile in SAGE_DEVICE_PLATFORM (fe::PlatFormInfos' leading
// fields as a brace list); without it, PlatFormInfos' defaults (a 910B). The SoC name a program
// passes is not looked up: the simulated device is the one there is.
class PlatformAscendCManager {
public:
    static PlatformAscendC* GetInstance() {
#ifdef SAGE_DEVICE_PLATFORM
        static PlatformAscendC platform = [] {
            const fe::PlatFormInfos info SAGE_DEVICE_PLATFORM;
            return PlatformAscendC(&info);
        }();
#else
        static PlatformAscendC platform;
#endif
        return &platform;
    }
    static PlatformAscendC* GetInstance(const char* /*customSocVersion*/) { return GetInstance(); }
};

} // namespace platform_ascendc
