// Part of the simulator's host-context stand-in (tiling_context.h).
#pragma once

#include "exe_graph/runtime/tiling_context.h"
