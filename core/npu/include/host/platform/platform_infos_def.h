// Part of the simulator's platform stand-in (platform_info.h).
#pragma once

#include "platform/platform_info.h"
