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

// The spec's data-type names (task.json "dtype"): `sage op` defines ORIG_DTYPE_<NAME> as
// SAGE_DT_<dtype>, so the pairing of names and values lives here only.
#define SAGE_DT_float32 DT_FLOAT
#define SAGE_DT_float16 DT_FLOAT16
#define SAGE_DT_bfloat16 DT_BF16
#define SAGE_DT_int8 DT_INT8
#define SAGE_DT_int16 DT_INT16
#define SAGE_DT_int32 DT_INT32
#define SAGE_DT_int64 DT_INT64
#define SAGE_DT_uint8 DT_UINT8
#define SAGE_DT_uint16 DT_UINT16
#define SAGE_DT_uint32 DT_UINT32
#define SAGE_DT_uint64 DT_UINT64
#define SAGE_DT_bool DT_BOOL
#define SAGE_DT_float64 DT_DOUBLE
