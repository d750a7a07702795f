// The error-report macros of CANN's op log header (log/log.h) that op_host code calls to say
// which parameter is invalid and why: OP_LOGE_FOR_INVALID_SHAPEDIM(op, "x", "9", "in [1, 8]"),
// OP_LOGE_FOR_INVALID_DTYPE(op, "x", "DT_INT8", "float16 or bf16") and their siblings. Their
// arguments after the op name are texts (and, for a few, numbers); each becomes one ERROR line
// "<macro kind>: <arg>; <arg>; ..." on the stderr of the sandboxed host-tiling run, which `sage op`
// shows with a tiling that failed. Ops::Base::ToString gives the texts for shapes and data types.
#pragma once

#include "graph/types.h"

#include <cstdio>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace sage_op_log {

inline void appendText(std::ostringstream& o, const char* s) { o << (s ? s : "(null)"); }
inline void appendText(std::ostringstream& o, const std::string& s) { o << s; }
template <typename T> void appendText(std::ostringstream& o, const T& v) {
    if constexpr (std::is_arithmetic_v<T> || std::is_enum_v<T>) {
        if constexpr (std::is_enum_v<T>) o << static_cast<long long>(v);
        else o << v;
    } else {
        o << "?";
    }
}

template <typename Op, typename... Args> void report(const char* kind, const Op& op, const Args&... args) {
    std::ostringstream o;
    bool first = true;
    ((o << (first ? "" : "; "), appendText(o, args), first = false), ...);
    std::fprintf(stderr, "[ERROR] %s: %s: %s\n", nameOf(op), kind, o.str().c_str());
}

} // namespace sage_op_log

#define SAGE_OP_REPORT_(kind, opName, ...) ::sage_op_log::report(kind, opName, ##__VA_ARGS__)
#define OP_LOGE_FOR_INVALID_VALUE(opName, ...) SAGE_OP_REPORT_("invalid value", opName, ##__VA_ARGS__)
#define OP_LOGE_FOR_INVALID_VALUE_WITH_REASON(opName, ...) SAGE_OP_REPORT_("invalid value", opName, ##__VA_ARGS__)
#define OP_LOGE_FOR_INVALID_VALUES_WITH_REASON(opName, ...) SAGE_OP_REPORT_("invalid values", opName, ##__VA_ARGS__)
#define OP_LOGE_FOR_INVALID_SHAPE(opName, ...) SAGE_OP_REPORT_("invalid shape", opName, ##__VA_ARGS__)
#define OP_LOGE_FOR_INVALID_SHAPE_WITH_REASON(opName, ...) SAGE_OP_REPORT_("invalid shape", opName, ##__VA_ARGS__)
#define OP_LOGE_FOR_INVALID_SHAPES_WITH_REASON(opName, ...) SAGE_OP_REPORT_("invalid shapes", opName, ##__VA_ARGS__)
#define OP_LOGE_FOR_INVALID_SHAPEDIM(opName, ...) SAGE_OP_REPORT_("invalid dimension count", opName, ##__VA_ARGS__)
#define OP_LOGE_FOR_INVALID_SHAPEDIM_WITH_REASON(opName, ...) SAGE_OP_REPORT_("invalid dimension count", opName, ##__VA_ARGS__)
#define OP_LOGE_FOR_INVALID_SHAPEDIMS_WITH_REASON(opName, ...) SAGE_OP_REPORT_("invalid dimension counts", opName, ##__VA_ARGS__)
#define OP_LOGE_FOR_INVALID_SHAPESIZE(opName, ...) SAGE_OP_REPORT_("invalid shape size", opName, ##__VA_ARGS__)
#define OP_LOGE_FOR_INVALID_SHAPESIZE_WITH_REASON(opName, ...) SAGE_OP_REPORT_("invalid shape size", opName, ##__VA_ARGS__)
#define OP_LOGE_FOR_INVALID_SHAPESIZES_WITH_REASON(opName, ...) SAGE_OP_REPORT_("invalid shape sizes", opName, ##__VA_ARGS__)
#define OP_LOGE_FOR_INVALID_DTYPE(opName, ...) SAGE_OP_REPORT_("invalid data type", opName, ##__VA_ARGS__)
#define OP_LOGE_FOR_INVALID_DTYPE_WITH_REASON(opName, ...) SAGE_OP_REPORT_("invalid data type", opName, ##__VA_ARGS__)
#define OP_LOGE_FOR_INVALID_DTYPES_WITH_REASON(opName, ...) SAGE_OP_REPORT_("invalid data types", opName, ##__VA_ARGS__)
#define OP_LOGE_FOR_INVALID_FORMAT(opName, ...) SAGE_OP_REPORT_("invalid format", opName, ##__VA_ARGS__)
#define OP_LOGE_FOR_INVALID_FORMAT_WITH_REASON(opName, ...) SAGE_OP_REPORT_("invalid format", opName, ##__VA_ARGS__)
#define OP_LOGE_FOR_INVALID_FORMATS_WITH_REASON(opName, ...) SAGE_OP_REPORT_("invalid formats", opName, ##__VA_ARGS__)
#define OP_LOGE_FOR_INVALID_TENSORNUM(opName, ...) SAGE_OP_REPORT_("invalid tensor count", opName, ##__VA_ARGS__)
#define OP_LOGE_FOR_INVALID_TENSORNUMS_WITH_REASON(opName, ...) SAGE_OP_REPORT_("invalid tensor counts", opName, ##__VA_ARGS__)
#define OP_LOGE_FOR_INVALID_LISTSIZE(opName, ...) SAGE_OP_REPORT_("invalid list size", opName, ##__VA_ARGS__)
#define OP_LOGE_FOR_INVALID_ARGUMENT_WITH_REASON(opName, ...) SAGE_OP_REPORT_("invalid argument", opName, ##__VA_ARGS__)
#define OP_LOGE_WITH_INVALID_ATTR(opName, ...) SAGE_OP_REPORT_("invalid attribute", opName, ##__VA_ARGS__)
#define OP_LOGE_WITH_INVALID_INPUT_DTYPE(opName, ...) SAGE_OP_REPORT_("invalid input data type", opName, ##__VA_ARGS__)
