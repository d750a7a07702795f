// The same header under the path some of CANN's op repositories include it by.
#pragma once

#include "util/platform_util.h"
