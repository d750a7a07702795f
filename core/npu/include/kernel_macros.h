// Keywords and macros that real AscendC kernels use, mapped onto host C++.
#pragma once

#include "kernel_runtime.h"


#ifndef __NPU_ARCH__
#define __NPU_ARCH__ 2201  // 910B unless the pipeline compiles for another device
#endif

#define __global__
#define __aicore__
#define __gm__
#define __vector__
#define __cube__
// A mixed cube/vector entry (`__mix__(cube cores, vector cores)`) and the Matmul API's
// workspace parameter; the simulator runs such an entry as one kernel.
#define __mix__(...)
#define __kfc_workspace__
#define __ubuf__
#define __local_mem__  // the Ascend 950 spelling of __ubuf__
#define __inline__ inline
#define __sync_noalias__
#define __sync_alias__
// SIMT functions (simt_api/asc_simt.h) and their launch bound: plain functions here.
#define __simt_vf__
#define __simt_callee__
#define __launch_bounds__(...)
#define LAUNCH_BOUND(...)

#ifndef ASCENDC_CPU_DEBUG
#define ASCENDC_CPU_DEBUG 1  // kernels take their CPU-debug path: launch with ICPU_RUN_KF
#endif
#ifndef __CCE_AICORE__  // the device compiler's core generation: 220 (910B), 200 (310P), 100 (910)
#if __NPU_ARCH__ == 2002
#define __CCE_AICORE__ 200
#elif __NPU_ARCH__ == 1001
#define __CCE_AICORE__ 100
#elif __NPU_ARCH__ == 3002
#define __CCE_AICORE__ 300
#else
#define __CCE_AICORE__ 220
#endif
#endif
#ifndef __CCE_KT_TEST__
#define __CCE_KT_TEST__ 1
#endif

using GM_ADDR = __gm__ uint8_t*;

// Kernel task types (KERNEL_TASK_TYPE_DEFAULT).
enum KernelTaskType {
    KERNEL_TYPE_AIV_ONLY = 0,
    KERNEL_TYPE_AIC_ONLY = 1,
    KERNEL_TYPE_MIX_AIV_1_0 = 2,
    KERNEL_TYPE_MIX_AIC_1_0 = 3,
    KERNEL_TYPE_MIX_AIC_1_1 = 4,
    KERNEL_TYPE_MIX_AIC_1_2 = 5,
    KERNEL_TYPE_MIX_AIV_1_1 = 6,
    KERNEL_TYPE_MIX_VECTOR_CORE = 7,  // 310P: AI core plus vector core; runs as vector here
};
// The core type a block runs as: AIV unless the kernel declares itself AIC-only. Mixed kernels
// (`if ASCEND_IS_AIC { ... }`) run their vector side only: one simulated core per block.
constexpr int AIC = 1;
constexpr int AIV = 2;
inline thread_local int g_coreType = AIV;
#define ASCEND_IS_AIV (g_coreType == AIV)
// block_idx: the CCE built-in variable for the block index (read-only).
#define block_idx (::sage::npu::rt::blockIdx())
#define ASCEND_IS_AIC (g_coreType == AIC)
#define KERNEL_TASK_TYPE_DEFAULT(type)                                                                    \
    (::sage::npu::rt::setTaskType(static_cast<int>(type)),                                                \
     g_coreType = static_cast<int>(type) == KERNEL_TYPE_AIC_ONLY ? AIC : AIV)
#define KERNEL_TASK_TYPE(key, type) ((void)(key), KERNEL_TASK_TYPE_DEFAULT(type))

// ASSERT(cond) and ASSERT(cond && "message"): a failed assert is a simulator error at its line.
// The device build defines ASSERT as empty, so real kernels write it without a semicolon, even
// straight after an expression (`this->n = n ASSERT(n != 0);`). Here it is `; { check }`: that
// ends such an expression, and `ASSERT(x);` / `ASSERT(x)` alone are empty statements around a
// block. The price: an unbraced `if (c) ASSERT(x);` checks unconditionally (brace the if).
#define ASSERT(...)                                                                                  \
    ;                                                                                                \
    {                                                                                                \
        ::sage::npu::rt::kernelAssert(static_cast<bool>(__VA_ARGS__), #__VA_ARGS__, nullptr,         \
                                      std::source_location::current());                              \
    }

// Tiling. The host side declares a POD struct; the kernel copies it out of GM.
// GET_TILING_DATA uses SAGE_TILING_TYPE, which the pipeline's prelude sets to the struct's name
// (from REGISTER_TILING_DATA_CLASS / BEGIN_TILING_DATA_DEF in the file, or the task's launch spec).
#define BEGIN_TILING_DATA_DEF(name) struct name {
// The accessors are what the host tiling function calls (set_x, get_x, SaveToBuffer); member
// functions leave the struct's layout as the kernel reads it. END_TILING_DATA_DEF closes the
// struct with its `;`, so headers that write it with or without one both compile.
#define TILING_DATA_FIELD_DEF(type, field)                                                                 \
    type field;                                                                                            \
    void set_##field(type v) { field = v; }                                                                \
    type get_##field() const { return field; }
#define TILING_DATA_FIELD_DEF_ARR(type, count, field)                                                      \
    type field[count];                                                                                     \
    void set_##field(const type* v) { std::memcpy(field, v, sizeof(field)); }                              \
    type* get_##field() { return field; }
#define TILING_DATA_FIELD_DEF_STRUCT(type, field) type field;
#define END_TILING_DATA_DEF                                                                                \
    void SaveToBuffer(void* buf, size_t capacity) const {                                                  \
        std::memcpy(buf, this, sizeof(*this) <= capacity ? sizeof(*this) : capacity);                      \
    }                                                                                                      \
    size_t GetDataSize() const { return sizeof(*this); }                                                   \
    };
#define REGISTER_TILING_DATA_CLASS(op, cls)
#ifndef SAGE_TILING_TYPE
#define SAGE_TILING_TYPE TilingData
#endif
#define GET_TILING_DATA(var, tiling)                                                                       \
    SAGE_TILING_TYPE var;                                                                                  \
    ::sage::npu::rt::copyTiling(&var, sizeof(var), (tiling), std::source_location::current())
#define GET_TILING_DATA_WITH_STRUCT(type, var, tiling)                                                     \
    type var;                                                                                              \
    ::sage::npu::rt::copyTiling(&var, sizeof(var), (tiling), std::source_location::current())
#define TILING_KEY_IS(key) (::sage::npu::rt::tilingKey() == static_cast<uint64_t>(key))
// The tiling key as a value (`switch (TILING_KEY_VAR)`).
#define TILING_KEY_VAR (::sage::npu::rt::tilingKey())
// Newer kernels read a plain tiling struct (op_kernel/<op>_tiling_data.h) and register it for the
// framework; the registration tells the real build which struct the tiling bytes hold and does
// nothing at run time.
#define REGISTER_TILING_DEFAULT(type) static_assert(sizeof(type) > 0, "the registered tiling struct is complete")
#define REGISTER_TILING_FOR_TILINGKEY(condition, type) static_assert(sizeof(type) > 0, "the registered tiling struct is complete")
// The qualifier of a pointer to the tiling struct (GET_TILING_DATA_PTR_WITH_STRUCT): read-only.
#define __tiling_data_ptr__ const
// A kernel that reads no tiling struct says so (a statement in its body); nothing to do at run time.
#define REGISTER_NONE_TILING static_assert(true, "the kernel reads no tiling struct")
// A pointer to the kernel's own copy of the tiling struct.
#define GET_TILING_DATA_PTR_WITH_STRUCT(type, var, tiling)                                                 \
    GET_TILING_DATA_WITH_STRUCT(type, var##SageCopy, tiling);                                              \
    const type* var = &var##SageCopy

namespace sage::npu::detail {
template <typename...> inline constexpr bool alwaysFalse = false;
}
