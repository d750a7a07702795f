// SIMT synchronisation, atomics and cache-hinted memory access. Threads of a launch run one at a
// time on the simulated core (simt_runtime.h), so an atomic's read-modify-write is never
// interleaved with another thread's; each atomic and hinted access is bounds-checked against the
// GM allocations and UB and names the offending thread.
#pragma once

#include "simt_api/simt_builtins.h"

#include <cstring>
#include <type_traits>

namespace sage::simt {

template <typename T> inline T* checked(T* address, bool write, const char* api, npu::Loc loc) {
    return reinterpret_cast<T*>(npu::rt::simtAccess(address, uint32_t(sizeof(T)), write, api, loc));
}

// Applies `op` to *address atomically; returns the value before.
template <typename T, typename Op> inline T atomicUpdate(T* address, Op op, const char* api, npu::Loc loc) {
    T* p = checked(address, true, api, loc);
    T old;
    std::memcpy(&old, p, sizeof(T));
    const T updated = op(old);
    std::memcpy(p, &updated, sizeof(T));
    return old;
}

} // namespace sage::simt

// Waits until every thread of the block reaches it.
__aicore__ inline void asc_syncthreads(::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    ::sage::npu::rt::simtSyncThreads(loc);
    ::sage::simt::loadThreadIndices("asc_syncthreads", loc);
}
// Memory fences: the simulator's threads see each other's stores at once; a fence costs one
// operation.
__aicore__ inline void asc_threadfence() { ::sage::npu::rt::simtCount(1); }
__aicore__ inline void asc_threadfence_block() { ::sage::npu::rt::simtCount(1); }

#define SAGE_SIMT_ATOMIC(name, expr)                                                                            \
    template <typename T, typename V>                                                                           \
    __aicore__ inline T name(T* address, V value, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {         \
        const T v = static_cast<T>(value);                                                                      \
        return ::sage::simt::atomicUpdate(address, [&](T old) { return static_cast<T>(expr); }, #name, loc);    \
    }
SAGE_SIMT_ATOMIC(asc_atomic_add, old + v)
SAGE_SIMT_ATOMIC(asc_atomic_sub, old - v)
SAGE_SIMT_ATOMIC(asc_atomic_max, old < v ? v : old)
SAGE_SIMT_ATOMIC(asc_atomic_min, v < old ? v : old)
SAGE_SIMT_ATOMIC(asc_atomic_exch, v)
SAGE_SIMT_ATOMIC(asc_atomic_and, old & v)
SAGE_SIMT_ATOMIC(asc_atomic_or, old | v)
SAGE_SIMT_ATOMIC(asc_atomic_xor, old ^ v)
// Wrapping increment and decrement (CUDA's atomicInc/atomicDec semantics).
SAGE_SIMT_ATOMIC(asc_atomic_inc, old >= v ? T(0) : T(old + 1))
SAGE_SIMT_ATOMIC(asc_atomic_dec, (old == T(0) || old > v) ? v : T(old - 1))
#undef SAGE_SIMT_ATOMIC

// Stores `value` when *address equals `compare`; returns the value before either way.
template <typename T, typename C, typename V>
__aicore__ inline T asc_atomic_cas(T* address, C compare, V value,
                                   ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    const T c = static_cast<T>(compare), v = static_cast<T>(value);
    return ::sage::simt::atomicUpdate(address, [&](T old) { return old == c ? v : old; }, "asc_atomic_cas", loc);
}

// The CUDA spellings some samples use.
template <typename T, typename V> __aicore__ inline T atomicAdd(T* address, V value,
                                                                ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    return asc_atomic_add(address, value, loc);
}

// Loads and stores with a cache hint: the hint changes nothing here; the access is checked.
#define SAGE_SIMT_LOAD(name)                                                                                    \
    template <typename T> __aicore__ inline T name(const T* address, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) { \
        T v;                                                                                                    \
        std::memcpy(&v, ::sage::simt::checked(address, false, #name, loc), sizeof(T));                           \
        return v;                                                                                               \
    }
SAGE_SIMT_LOAD(asc_ldcg)
SAGE_SIMT_LOAD(asc_ldca)
SAGE_SIMT_LOAD(asc_ldcs)
SAGE_SIMT_LOAD(asc_ldlu)
SAGE_SIMT_LOAD(asc_ldcv)
SAGE_SIMT_LOAD(asc_ldg)
#undef SAGE_SIMT_LOAD
#define SAGE_SIMT_STORE(name)                                                                                   \
    template <typename T, typename V>                                                                           \
    __aicore__ inline void name(T* address, V value, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {       \
        const T v = static_cast<T>(value);                                                                      \
        std::memcpy(::sage::simt::checked(address, true, #name, loc), &v, sizeof(T));                            \
    }
SAGE_SIMT_STORE(asc_stcg)
SAGE_SIMT_STORE(asc_stcs)
SAGE_SIMT_STORE(asc_stwb)
SAGE_SIMT_STORE(asc_stwt)
#undef SAGE_SIMT_STORE
