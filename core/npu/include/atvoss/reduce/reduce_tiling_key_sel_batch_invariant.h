// atvoss/reduce/reduce_tiling_key_sel_batch_invariant.h: the selections of the batch-invariant reduce key (none here).
#pragma once

#include "atvoss/reduce/reduce_tiling_key_sel.h"
