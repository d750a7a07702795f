// atvoss/reduce/reduce_tiling_key_decl_non_contiguous.h: the reduce key with the contiguity flag.
#pragma once

#include "atvoss/reduce/reduce_tiling_key_decl.h"

#define REDUCE_TPL_KEY_DECL_NON_CONTIGUOUS() REDUCE_TPL_KEY_DECL(), ASCENDC_TPL_BOOL_DECL(IsContiguous, 0, 1)
