// Part of the simulator's host-context stand-in (tiling_context.h): CANN's kernel run context is the
// base of its tiling and inference contexts (gert::KernelContext there).
#pragma once

#include "exe_graph/runtime/tiling_context.h"
