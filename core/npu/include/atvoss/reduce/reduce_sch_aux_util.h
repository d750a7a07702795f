// atvoss/reduce/reduce_sch_aux_util.h: helpers shared by reduce kernels (the schedule and its types).
#pragma once

#include "atvoss/reduce/reduce_sch.h"
