// The simulator's stand-in for the CANN host header base/err_msg.h: error reports of op_host
// code go to stderr of the sandboxed host-tiling run.
#pragma once

#include <cstdio>

#define REPORT_INNER_ERR_MSG(code, fmt, ...) std::fprintf(stderr, "[%s] " fmt "\n", code, ##__VA_ARGS__)
