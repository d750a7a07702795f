// The same logging header under the path some of CANN's op repositories include it by.
#pragma once

#include "log/log.h"
