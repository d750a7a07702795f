// The simulator's stand-in for the logging header of CANN's current op repositories
// (log/log.h): OP_LOGE/W/I/D with an op name or a context, OP_CHECK_IF, and
// OP_CHECK_NULL_WITH_CONTEXT. Errors and warnings go to stderr of the sandboxed host-tiling run
// (sage op shows its tail with a failed tiling); debug and info records are dropped.
#pragma once

#include "graph/types.h"

#include <cstdio>
#include <string>
#include <type_traits>

namespace sage_op_log {

inline const char* nameOf(const char* name) { return name ? name : "op"; }
inline const char* nameOf(const std::string& name) { return name.c_str(); }
// A context (TilingContext, InferShapeContext, ...): its node name when it has one.
template <typename Ctx> const char* nameOf(Ctx* ctx) {
    if constexpr (requires { ctx->GetNodeName(); }) return ctx && ctx->GetNodeName() ? ctx->GetNodeName() : "op";
    else return "op";
}

template <typename... Args> void record(const char* level, const char* op, const char* fmt, Args... args) {
    std::fprintf(stderr, "[%s] %s: ", level, op);
    if constexpr (sizeof...(Args) == 0) std::fputs(fmt, stderr);
    else std::fprintf(stderr, fmt, args...);
    std::fputc('\n', stderr);
}

} // namespace sage_op_log

// The text helpers CANN's log macros build their messages with (Ops::Base): the op's name as text
// from a name, a context or a graph Operator, a text that is never null, and shapes, data types and
// lists as text ("[2, 3]", "DT_FLOAT16").
namespace Ops {
namespace Base {
template <typename Op> std::string GetOpInfo(const Op& op) {
    if constexpr (requires { op.GetName(); }) return op.GetName();
    else return ::sage_op_log::nameOf(op);
}
inline const char* GetSafeStr(const std::string& s) { return s.c_str(); }
inline const char* GetSafeStr(const char* s) { return s ? s : "(null)"; }
inline std::string ToString(ge::DataType t) { return ge::TypeUtils::DataTypeToSerialString(t); }
inline std::string ToString(ge::Format f) { return ge::TypeUtils::FormatToSerialString(f); }
template <typename T> std::string ToString(const T& v) {
    std::string out = "[";
    if constexpr (requires { v.GetDimNum(); }) {
        for (size_t i = 0; i < v.GetDimNum(); ++i) out += (i ? ", " : "") + std::to_string(v.GetDim(i));
    } else {
        size_t i = 0;
        for (const auto& x : v) out += (i++ ? ", " : "") + ToString(x);
    }
    return out + "]";
}
inline std::string ToString(int64_t v) { return std::to_string(v); }
} // namespace Base
} // namespace Ops

#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#endif
#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif

#define OP_LOGE(opName, ...) ::sage_op_log::record("ERROR", ::sage_op_log::nameOf(opName), __VA_ARGS__)
#define OP_LOGW(opName, ...) ::sage_op_log::record("WARNING", ::sage_op_log::nameOf(opName), __VA_ARGS__)
// An error line without the error-manager report CANN adds; the same line here.
#define OP_LOGE_WITHOUT_REPORT(opName, ...) OP_LOGE(opName, __VA_ARGS__)
// The D_ forms take the op's name as text already.
#define D_OP_LOGE(opName, ...) OP_LOGE(opName, __VA_ARGS__)
#define D_OP_LOGW(opName, ...) OP_LOGW(opName, __VA_ARGS__)
#define D_OP_LOGI(opName, ...) ((void)(opName))
#define D_OP_LOGD(opName, ...) ((void)(opName))
#define OP_LOGI(opName, ...) ((void)(opName))
#define OP_LOGD(opName, ...) ((void)(opName))
#define OP_LOGE_IF(condition, returnValue, opName, ...)                                                            \
    do {                                                                                                           \
        if (condition) {                                                                                           \
            OP_LOGE(opName, __VA_ARGS__);                                                                          \
            return returnValue;                                                                                    \
        }                                                                                                          \
    } while (0)
// OP_CHECK_IF(cond, OP_LOGE(...), return ge::GRAPH_FAILED): the log and the statement when cond holds.
#define OP_CHECK_IF(condition, log, ...)                                                                           \
    do {                                                                                                           \
        if (condition) {                                                                                           \
            log;                                                                                                   \
            __VA_ARGS__;                                                                                           \
        }                                                                                                          \
    } while (0)
#define OP_CHECK_NULL_WITH_CONTEXT(context, ptr)                                                                   \
    do {                                                                                                           \
        if ((ptr) == nullptr) {                                                                                    \
            OP_LOGE(context, "%s is nullptr", #ptr);                                                               \
            return ge::GRAPH_FAILED;                                                                               \
        }                                                                                                          \
    } while (0)

#include "log/sage_op_log_reports.h"
