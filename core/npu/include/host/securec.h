// The simulator's stand-in for the bounds-checked C functions (securec.h) op_host code calls.
// Each checks the destination size and returns 0 on success, non-zero (and copies nothing
// past the destination) otherwise.
#pragma once

#include <cstdarg>
#include <cstddef>
#include <cstdio>
#include <cstring>

using errno_t = int;
constexpr errno_t EOK = 0;

inline errno_t memcpy_s(void* dest, size_t destMax, const void* src, size_t count) {
    if (dest == nullptr || src == nullptr || count > destMax) return 1;
    std::memcpy(dest, src, count);
    return EOK;
}
inline errno_t memset_s(void* dest, size_t destMax, int c, size_t count) {
    if (dest == nullptr || count > destMax) return 1;
    std::memset(dest, c, count);
    return EOK;
}
inline errno_t strcpy_s(char* dest, size_t destMax, const char* src) {
    if (dest == nullptr || src == nullptr || std::strlen(src) + 1 > destMax) return 1;
    std::memcpy(dest, src, std::strlen(src) + 1);
    return EOK;
}
inline int snprintf_s(char* dest, size_t destMax, size_t count, const char* fmt, ...) {
    if (dest == nullptr || destMax == 0) return -1;
    va_list args;
    va_start(args, fmt);
    const size_t limit = count + 1 < destMax ? count + 1 : destMax;
    int n = std::vsnprintf(dest, limit, fmt, args);
    va_end(args);
    return n < 0 || size_t(n) >= limit ? -1 : n;
}
inline int sprintf_s(char* dest, size_t destMax, const char* fmt, ...) {
    if (dest == nullptr || destMax == 0) return -1;
    va_list args;
    va_start(args, fmt);
    int n = std::vsnprintf(dest, destMax, fmt, args);
    va_end(args);
    return n < 0 || size_t(n) >= destMax ? -1 : n;
}
