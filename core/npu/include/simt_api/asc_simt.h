// The SIMT programming API (Ascend 950 generation): functions that run once per thread,
// launched from a SIMD kernel with asc_vf_call<F>(dim3(threads), args...) or as a __global__
// kernel with <<<grid, threads, ubuf, stream>>>. On the simulator every thread runs on the
// simulated core (simt_runtime.h); docs/kernel-api.md §17.11 says what runs, how it is costed and
// what is not simulated.
#pragma once

#include "simt_api/simt_builtins.h"
#include "simt_api/simt_math.h"
#include "simt_api/simt_sync_atomic.h"
#include "simt_api/simt_warp.h"
#include "simt_api/simt_uint_div.h"
#include "simt_api/asc_fp16.h"
#include "simt_api/asc_bf16.h"
