// The simulator's stand-in for CANN's host header platform/soc_spec.h (ops-nn's and ops-cv's op_host
// code, and the tiling headers their kernels include): the NPU architecture names a TilingFunc
// compares PlatformAscendC::GetCurNpuArch() against. The architecture itself is the selected device
// profile's ("npu_arch", __NPU_ARCH__), carried in fe::PlatFormInfos: nothing here is a constant
// answer for a device.
#pragma once

#include <cstdint>

// Values are the architecture numbers CANN's platform files give ("NpuArch" in the "version"
// label): 2201 for the 910B family, 2002 for 310P, 3510 for Ascend950.
enum class NpuArch : uint32_t {
    DAV_1001 = 1001,
    DAV_2002 = 2002,
    DAV_2201 = 2201,
    DAV_3002 = 3002,
    DAV_3003 = 3003,
    DAV_3102 = 3102,
    DAV_3113 = 3113,
    DAV_3510 = 3510,
    DAV_5102 = 5102,
    DAV_RESV = 0xFFFFFFFFu,
};

// The NpuArch an architecture number names; DAV_RESV for one CANN does not name.
inline NpuArch NpuArchOf(uint32_t arch) {
    switch (arch) {
    case 1001: case 2002: case 2201: case 3002: case 3003: case 3102: case 3113: case 3510: case 5102:
        return static_cast<NpuArch>(arch);
    default:
        return NpuArch::DAV_RESV;
    }
}
