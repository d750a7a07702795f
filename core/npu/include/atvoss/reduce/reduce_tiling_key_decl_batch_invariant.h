// atvoss/reduce/reduce_tiling_key_decl_batch_invariant.h: the reduce key with the batch-invariant
// flag (this schedule's results never depend on the block split, so the flag selects nothing).
#pragma once

#include "atvoss/reduce/reduce_tiling_key_decl.h"

#define REDUCE_TPL_KEY_DECL_BATCH_INVARIANT() REDUCE_TPL_KEY_DECL(), ASCENDC_TPL_BOOL_DECL(BatchInvariant, 0, 1)
