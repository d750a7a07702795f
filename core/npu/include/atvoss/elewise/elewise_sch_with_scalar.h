#pragma once
// atvoss/elewise/elewise_sch_with_scalar.h: ElementwiseSchWithScalar (same schedule as ElementwiseSch).
#include "atvoss/elewise/elewise_sch.h"
