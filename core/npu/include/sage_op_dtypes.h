// The data-type names an op kernel compares ORIG_DTYPE_<NAME> with, as numbers the preprocessor
// can compare: `#if ORIG_DTYPE_X == DT_BF16` and `if constexpr (ORIG_DTYPE_Y == DT_INT4)` (ops-nn's
// kernels choose their code path per compiled configuration this way). `sage op` defines
// ORIG_DTYPE_<NAME> as one of these names for each tensor of the configuration it compiles (while
// DTYPE_<NAME> stays the C++ type) and force-includes this header after the op's host tiling
// headers. The values are the ge::DataType values of graph/types.h. Kernel code that includes
// graph/types.h itself for the first time after this header would see macros where that header
// declares enumerators; no op kernel of ops-nn or ops-math does.
#pragma once

#ifndef DT_FLOAT
#define DT_FLOAT 0
#define DT_FLOAT32 0
#define DT_FLOAT16 1
#define DT_INT8 2
#define DT_INT32 3
#define DT_UINT8 4
#define DT_INT16 6
#define DT_UINT16 7
#define DT_UINT32 8
#define DT_INT64 9
#define DT_UINT64 10
#define DT_DOUBLE 11
#define DT_BOOL 12
#define DT_COMPLEX64 16
#define DT_COMPLEX128 17
#define DT_BF16 27
#define DT_INT4 29
#define DT_COMPLEX32 33
#define DT_HIFLOAT8 34
#define DT_FLOAT8_E5M2 35
#define DT_FLOAT8_E4M3FN 36
#define DT_FLOAT8_E8M0 37
#endif
