#pragma once
// atvoss/elewise/elewise_sch_16b.h: ElementwiseSch16B (same schedule as ElementwiseSch).
#include "atvoss/elewise/elewise_sch.h"
