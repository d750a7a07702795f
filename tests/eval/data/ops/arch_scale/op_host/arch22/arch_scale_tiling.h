// Test fixture written for SAGE: ArchScale's tiling, kept under op_host/arch22/ only, where the
// kernel's GET_TILING_DATA must find it.
#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ArchScaleTiling)
TILING_DATA_FIELD_DEF(uint32_t, total);
TILING_DATA_FIELD_DEF(uint32_t, perBlock);
TILING_DATA_FIELD_DEF(float, scale);
TILING_DATA_FIELD_DEF(uint32_t, npuArch);  // what the host read from platform/soc_spec.h
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(ArchScale, ArchScaleTiling)
} // namespace optiling
