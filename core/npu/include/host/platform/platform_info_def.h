// The same header under the name some of ops-nn's tilings include it by (platform_info_def.h).
#pragma once

#include "platform/platform_info.h"
