// The simulator's stand-in for the CANN graph types an op's host code uses: data types, formats
// and status codes (namespace ge). Values follow the public CANN enumerations so that a tiling
// function's switch over them behaves as on the device's host; `sage op` answers them from the
// op's test spec.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace ge {

using graphStatus = uint32_t;
constexpr graphStatus GRAPH_SUCCESS = 0;
constexpr graphStatus GRAPH_FAILED = 0xFFFFFFFFu;
constexpr graphStatus GRAPH_PARAM_INVALID = 50331649u;

// Dimension markers of shapes not known until run time (shape inference code compares with them).
constexpr int64_t UNKNOWN_DIM = -1;
constexpr int64_t UNKNOWN_DIM_NUM = -2;

enum DataType : int32_t {
    DT_FLOAT = 0, DT_FLOAT16 = 1, DT_INT8 = 2, DT_INT32 = 3, DT_UINT8 = 4, DT_INT16 = 6, DT_UINT16 = 7,
    DT_UINT32 = 8, DT_INT64 = 9, DT_UINT64 = 10, DT_DOUBLE = 11, DT_BOOL = 12, DT_STRING = 13,
    DT_COMPLEX64 = 16, DT_COMPLEX128 = 17, DT_BF16 = 27, DT_INT4 = 29, DT_UNDEFINED = 28, DT_COMPLEX32 = 33,
    // The 8-, 6- and 4-bit floating types of CANN's newer devices: op definitions list them in
    // configurations the simulated 910B devices never select.
    DT_HIFLOAT8 = 34, DT_FLOAT8_E5M2 = 35, DT_FLOAT8_E4M3FN = 36, DT_FLOAT8_E8M0 = 37, DT_FLOAT6_E3M2 = 38,
    DT_FLOAT6_E2M1 = 39, DT_FLOAT4_E2M1 = 40, DT_FLOAT4_E1M2 = 41,
    DT_MAX = 42
};

enum Format : int32_t {
    FORMAT_NCHW = 0, FORMAT_NHWC = 1, FORMAT_ND = 2, FORMAT_NC1HWC0 = 3, FORMAT_FRACTAL_Z = 4,
    FORMAT_NDHWC = 27, FORMAT_FRACTAL_NZ = 29, FORMAT_NCDHW = 30, FORMAT_NDC1HWC0 = 32,
    FORMAT_FRACTAL_Z_3D = 33, FORMAT_RESERVED = 40
};

// Host code that says `using namespace ge;` names std::map unqualified, as CANN's graph headers
// let it (ops-nn's dynamic_quant tiling: `static map<const ge::DataType, const uint32_t> ...`).
using std::map;

inline Format GetPrimaryFormat(int32_t format) { return static_cast<Format>(format & 0xff); }

// Bytes per element (sub-byte types report 1, as the host API rounds them up).
inline int32_t GetSizeByDataType(DataType t) {
    switch (t) {
    case DT_FLOAT: case DT_INT32: case DT_UINT32: case DT_COMPLEX32: return 4;
    case DT_FLOAT16: case DT_BF16: case DT_INT16: case DT_UINT16: return 2;
    case DT_INT8: case DT_UINT8: case DT_BOOL: case DT_INT4: case DT_HIFLOAT8: case DT_FLOAT8_E5M2:
    case DT_FLOAT8_E4M3FN: case DT_FLOAT8_E8M0: case DT_FLOAT6_E3M2: case DT_FLOAT6_E2M1: case DT_FLOAT4_E2M1:
    case DT_FLOAT4_E1M2: return 1;
    case DT_INT64: case DT_UINT64: case DT_DOUBLE: case DT_COMPLEX64: return 8;
    case DT_COMPLEX128: return 16;
    default: return -1;
    }
}

// Names as text: op_host code logs them. The element size in bytes, as GetSizeByDataType.
struct AscendString {
    std::string s;
    AscendString(std::string v = "") : s(std::move(v)) {}
    const char* GetString() const { return s.c_str(); }
};
struct TypeUtils {
    static std::string DataTypeToSerialString(DataType t) { return "DT_" + std::to_string(int(t)); }
    static std::string FormatToSerialString(Format f) { return "FORMAT_" + std::to_string(int(f)); }
    static AscendString DataTypeToAscendString(DataType t) { return AscendString(DataTypeToSerialString(t)); }
    static AscendString FormatToAscendString(Format f) { return AscendString(FormatToSerialString(f)); }
    static bool GetDataTypeLength(DataType t, uint32_t& length) {
        const int32_t n = GetSizeByDataType(t);
        if (n <= 0) return false;
        length = uint32_t(n);
        return true;
    }
};

} // namespace ge
