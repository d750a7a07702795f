// Part of the simulator's host stand-ins: ge::TypeUtils lives in graph/types.h.
#pragma once

#include "graph/types.h"
