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

#define OP_LOGE(opName, ...) ::sage_op_log::record("ERROR", ::sage_op_log::nameOf(opName), __VA_ARGS__)
#define OP_LOGW(opName, ...) ::sage_op_log::record("WARNING", ::sage_op_log::nameOf(opName), __VA_ARGS__)
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
