// atvoss/reduce/reduce_tiling_key_sel_non_contiguous.h: the selections of the non-contiguous reduce key (none here).
#pragma once

#include "atvoss/reduce/reduce_tiling_key_sel.h"
