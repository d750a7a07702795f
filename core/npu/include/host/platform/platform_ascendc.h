// platform/platform_ascendc.h: the spelling ops-nn's common/inc/op_host/tiling_util.h uses for
// tiling/platform/platform_ascendc.h (the same header in CANN's install tree).
#pragma once

#include "tiling/platform/platform_ascendc.h"
