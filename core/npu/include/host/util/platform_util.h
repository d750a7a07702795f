// The host-side util/platform_util.h of CANN's current op repositories: platform figures a
// TilingFunc asks through its context.
#pragma once

#include "tiling/platform/platform_ascendc.h"

#include <cstdint>

namespace Ops {
namespace Base {
// The unit of UB addressing and of DataCopy: 32 bytes on every simulated device.
template <typename Ctx> inline uint32_t GetUbBlockSize(Ctx*) { return 32; }
// Bytes one vector instruction processes per repeat (a vector register): 256 on the simulated
// devices, as on every Ascend AI core CANN's tilings branch on.
template <typename Ctx> inline uint32_t GetVRegSize(Ctx*) { return 256; }
// The vector cores of the platform the context describes (0 without a context).
template <typename Ctx> inline uint32_t GetAivCoreNum(Ctx* context) {
    return context ? platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetCoreNumAiv() : 0;
}
} // namespace Base
} // namespace Ops
