// The ACL runtime calls a single-file AscendC program (`.asc`) makes around its kernel launch,
// written here against the documented ACL API, for running such a program on the simulator
// (`sage op PROGRAM.asc`, docs/compatibility.md "Running .asc programs").
//
// There is one simulated device and one stream; a launch runs to completion before the call
// returns, so synchronising is a no-op. Device memory is simulated GM (kernels see it with the
// simulator's bounds checks); host memory is ordinary memory. Every call checks its arguments
// and answers an ACL error code as the real runtime does, so a program's own CHECK_ACL macros
// keep working.
#pragma once

#include "kernel_launch.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

using aclError = int;
using aclrtStream = void*;
using aclrtContext = void*;
using aclrtEvent = void*;

constexpr aclError ACL_SUCCESS = 0;
constexpr aclError ACL_ERROR_INVALID_PARAM = 100000;
constexpr aclError ACL_ERROR_BAD_ALLOC = 200000;

enum aclrtMemMallocPolicy {
    ACL_MEM_MALLOC_HUGE_FIRST = 0,
    ACL_MEM_MALLOC_HUGE_ONLY = 1,
    ACL_MEM_MALLOC_NORMAL_ONLY = 2,
    ACL_MEM_MALLOC_HUGE_FIRST_P2P = 3,
    ACL_MEM_MALLOC_HUGE_ONLY_P2P = 4,
    ACL_MEM_MALLOC_NORMAL_ONLY_P2P = 5,
};

enum aclrtMemcpyKind {
    ACL_MEMCPY_HOST_TO_HOST = 0,
    ACL_MEMCPY_HOST_TO_DEVICE = 1,
    ACL_MEMCPY_DEVICE_TO_HOST = 2,
    ACL_MEMCPY_DEVICE_TO_DEVICE = 3,
};

enum aclrtRunMode { ACL_DEVICE = 0, ACL_HOST = 1 };

namespace sage::asc {
// The one simulated device's id (aclrtSetDevice accepts only it) and the stream handle every
// aclrtCreateStream hands out.
constexpr int32_t kDeviceId = 0;
inline int g_streamToken = 0;
inline bool g_aclInitialised = false;
} // namespace sage::asc

inline aclError aclInit(const char* /*configPath*/) {
    ::sage::asc::g_aclInitialised = true;
    return ACL_SUCCESS;
}
inline aclError aclFinalize() {
    ::sage::asc::g_aclInitialised = false;
    return ACL_SUCCESS;
}
inline const char* aclGetRecentErrMsg() { return "no error (simulated ACL runtime)"; }

inline aclError aclrtSetDevice(int32_t deviceId) {
    return deviceId == ::sage::asc::kDeviceId ? ACL_SUCCESS : ACL_ERROR_INVALID_PARAM;
}
inline aclError aclrtResetDevice(int32_t deviceId) { return aclrtSetDevice(deviceId); }
inline aclError aclrtGetDevice(int32_t* deviceId) {
    if (!deviceId) return ACL_ERROR_INVALID_PARAM;
    *deviceId = ::sage::asc::kDeviceId;
    return ACL_SUCCESS;
}
inline aclError aclrtGetDeviceCount(uint32_t* count) {
    if (!count) return ACL_ERROR_INVALID_PARAM;
    *count = 1;
    return ACL_SUCCESS;
}
inline aclError aclrtGetRunMode(aclrtRunMode* mode) {
    if (!mode) return ACL_ERROR_INVALID_PARAM;
    *mode = ACL_HOST;
    return ACL_SUCCESS;
}
inline aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId) {
    if (!context || deviceId != ::sage::asc::kDeviceId) return ACL_ERROR_INVALID_PARAM;
    *context = &::sage::asc::g_streamToken;
    return ACL_SUCCESS;
}
inline aclError aclrtDestroyContext(aclrtContext context) { return context ? ACL_SUCCESS : ACL_ERROR_INVALID_PARAM; }
inline aclError aclrtSetCurrentContext(aclrtContext context) { return aclrtDestroyContext(context); }

inline aclError aclrtCreateStream(aclrtStream* stream) {
    if (!stream) return ACL_ERROR_INVALID_PARAM;
    *stream = &::sage::asc::g_streamToken;
    return ACL_SUCCESS;
}
inline aclError aclrtDestroyStream(aclrtStream) { return ACL_SUCCESS; }
// Launches run to completion, so there is never outstanding work to wait for.
inline aclError aclrtSynchronizeStream(aclrtStream) { return ACL_SUCCESS; }
inline aclError aclrtSynchronizeDevice() { return ACL_SUCCESS; }

inline aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy /*policy*/) {
    if (!devPtr || size == 0) return ACL_ERROR_INVALID_PARAM;
    *devPtr = ::sage::npu::rt::gmAlloc(size);
    return *devPtr ? ACL_SUCCESS : ACL_ERROR_BAD_ALLOC;
}
inline aclError aclrtFree(void* devPtr) {
    if (!devPtr) return ACL_ERROR_INVALID_PARAM;
    ::sage::npu::rt::gmFree(devPtr);
    return ACL_SUCCESS;
}
inline aclError aclrtMallocHost(void** hostPtr, size_t size) {
    if (!hostPtr || size == 0) return ACL_ERROR_INVALID_PARAM;
    // 64-byte aligned, as programs reinterpret host buffers as any element type.
    *hostPtr = std::aligned_alloc(64, (size + 63) / 64 * 64);
    return *hostPtr ? ACL_SUCCESS : ACL_ERROR_BAD_ALLOC;
}
inline aclError aclrtFreeHost(void* hostPtr) {
    if (!hostPtr) return ACL_ERROR_INVALID_PARAM;
    std::free(hostPtr);
    return ACL_SUCCESS;
}
// Host and simulated device memory share the address space: every kind is one copy. The real
// runtime refuses a count larger than the destination, and so does this.
inline aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind) {
    if (!dst || !src || count > destMax || int(kind) < 0 || int(kind) > 3) return ACL_ERROR_INVALID_PARAM;
    std::memmove(dst, src, count);
    return ACL_SUCCESS;
}
inline aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind,
                                 aclrtStream) {
    return aclrtMemcpy(dst, destMax, src, count, kind);
}
inline aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count) {
    if (!devPtr || count > maxCount) return ACL_ERROR_INVALID_PARAM;
    std::memset(devPtr, value, count);
    return ACL_SUCCESS;
}
