// The SIMT API by topic; everything lives in asc_simt.h.
#pragma once

#include "simt_api/asc_simt.h"
