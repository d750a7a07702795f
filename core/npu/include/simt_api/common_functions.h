// Helpers shared by SIMT kernels (the magic-number division of simt_uint_div.h); everything lives
// in asc_simt.h.
#pragma once

#include "simt_api/asc_simt.h"
