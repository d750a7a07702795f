// The simulator's stand-in for the CANN host header tiling/tiling_base.h: the tiling macros and
// the host API (register/tilingdata_base.h). A project's own tiling/tiling_base.h, when it has
// one on its include path, is found first.
#pragma once

#include "register/tilingdata_base.h"
