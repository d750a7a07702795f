// The simulator's stand-in for the CANN host logging header base/alog_pub.h that op_host code
// logs through: errors and warnings go to stderr of the sandboxed host-tiling run, debug and
// info records are dropped.
#pragma once

#include <cstdarg>
#include <cstdio>

enum { DLOG_DEBUG = 0, DLOG_INFO = 1, DLOG_WARN = 2, DLOG_ERROR = 3, DLOG_NULL = 4, DLOG_EVENT = 0x10 };
enum { DLOG_TYPE_DEBUG = 0, DLOG_TYPE_RUN = 1 };
enum { OP = 6 };  // the operator module's log id

#ifndef OPS_UTILS_LOG_SUB_MOD_NAME
#define OPS_UTILS_LOG_SUB_MOD_NAME "OP_TILING"
#endif
#ifndef OPS_UTILS_LOG_PACKAGE_TYPE
#define OPS_UTILS_LOG_PACKAGE_TYPE "OP_HOST"
#endif

inline int AlogCheckDebugLevel(int moduleId, int level) {
    (void)moduleId;
    return level == DLOG_WARN || level == DLOG_ERROR ? 1 : 0;
}
inline int CheckLogLevel(int moduleId, int level) { return AlogCheckDebugLevel(moduleId, level); }
inline void AlogRecord(int moduleId, int type, int level, const char* fmt, ...) {
    (void)moduleId, (void)type, (void)level;
    va_list args;
    va_start(args, fmt);
    std::vfprintf(stderr, fmt, args);
    va_end(args);
    std::fputc('\n', stderr);
}
