// Synchronisation between pipes of one core: SetFlag/WaitFlag with a HardEvent, PipeBarrier.
#pragma once

#include "kernel_macros.h"

// pipe_t and event_t are global in the CCE toolchain; kernels spell them without a namespace.
enum pipe_t : uint8_t {
    PIPE_S = 0, PIPE_V = 1, PIPE_M = 2, PIPE_MTE1 = 3, PIPE_MTE2 = 4, PIPE_MTE3 = 5, PIPE_FIX = 6, PIPE_ALL = 7,
};
enum event_t : int32_t {
    EVENT_ID0 = 0, EVENT_ID1, EVENT_ID2, EVENT_ID3, EVENT_ID4, EVENT_ID5, EVENT_ID6, EVENT_ID7,
};

namespace AscendC {

// HardEvent SRC_DST: the DST pipe waits for the SRC pipe. Encoded as src * 8 + dst.
#define SAGE_EV(s, d) (static_cast<int>(PIPE_##s) * 8 + static_cast<int>(PIPE_##d))
enum class HardEvent : int {
    MTE2_MTE1 = SAGE_EV(MTE2, MTE1), MTE1_MTE2 = SAGE_EV(MTE1, MTE2), MTE1_M = SAGE_EV(MTE1, M),
    M_MTE1 = SAGE_EV(M, MTE1), MTE2_V = SAGE_EV(MTE2, V), V_MTE2 = SAGE_EV(V, MTE2), MTE3_V = SAGE_EV(MTE3, V),
    V_MTE3 = SAGE_EV(V, MTE3), M_V = SAGE_EV(M, V), V_M = SAGE_EV(V, M), V_V = SAGE_EV(V, V),
    MTE3_MTE1 = SAGE_EV(MTE3, MTE1), MTE1_MTE3 = SAGE_EV(MTE1, MTE3), MTE1_V = SAGE_EV(MTE1, V),
    MTE2_M = SAGE_EV(MTE2, M), M_MTE2 = SAGE_EV(M, MTE2), V_MTE1 = SAGE_EV(V, MTE1), M_FIX = SAGE_EV(M, FIX),
    FIX_M = SAGE_EV(FIX, M), MTE3_MTE2 = SAGE_EV(MTE3, MTE2), MTE2_MTE3 = SAGE_EV(MTE2, MTE3),
    S_V = SAGE_EV(S, V), V_S = SAGE_EV(V, S), S_MTE2 = SAGE_EV(S, MTE2), MTE2_S = SAGE_EV(MTE2, S),
    S_MTE3 = SAGE_EV(S, MTE3), MTE3_S = SAGE_EV(MTE3, S), MTE2_FIX = SAGE_EV(MTE2, FIX),
    FIX_MTE2 = SAGE_EV(FIX, MTE2), FIX_S = SAGE_EV(FIX, S), M_S = SAGE_EV(M, S), FIX_MTE3 = SAGE_EV(FIX, MTE3),
    S_M = SAGE_EV(S, M), S_FIX = SAGE_EV(S, FIX),
};
#undef SAGE_EV

namespace detail {
constexpr ::sage::npu::PipeId srcPipe(HardEvent e) { return static_cast<::sage::npu::PipeId>(int(e) / 8); }
constexpr ::sage::npu::PipeId dstPipe(HardEvent e) { return static_cast<::sage::npu::PipeId>(int(e) % 8); }
} // namespace detail

template <HardEvent event>
__aicore__ inline void SetFlag(int32_t eventID, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    ::sage::npu::rt::setFlag(detail::srcPipe(event), detail::dstPipe(event), eventID, loc);
}
template <HardEvent event>
__aicore__ inline void WaitFlag(int32_t eventID, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    ::sage::npu::rt::waitFlag(detail::srcPipe(event), detail::dstPipe(event), eventID, loc);
}
template <pipe_t pipe> __aicore__ inline void PipeBarrier(::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    ::sage::npu::rt::pipeBarrier(static_cast<::sage::npu::PipeId>(pipe), loc);
}
__aicore__ inline void SyncAll(::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    ::sage::npu::rt::syncAll(loc);
}
// The memory a data synchronisation barrier waits for.
enum class MemDsbT { ALL = 0, DDR, UB };
// DataSyncBarrier<mem>: the core goes on only when the memory accesses issued before it (to `mem`)
// have completed. Modelled as PipeBarrier<PIPE_ALL>, which waits for every pipe's earlier work:
// at least as long as the barrier, and the same values afterwards.
template <MemDsbT mem> __aicore__ inline void DataSyncBarrier(::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    ::sage::npu::rt::pipeBarrier(static_cast<::sage::npu::PipeId>(PIPE_ALL), loc);
}
template <bool isAIVOnly = true>
__aicore__ inline void SyncAll(::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    ::sage::npu::rt::syncAll(loc);
}
// The software form with GM/UB workspaces: the same barrier (not supported: the simulator runs
// blocks one after another, so the call reports `unsupported` at run time).
template <bool isAIVOnly = true, typename G, typename L>
__aicore__ inline void SyncAll(const G& gmWorkspace, const L& ubWorkspace, int32_t usedCores = 0,
                               ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    (void)gmWorkspace, (void)ubWorkspace, (void)usedCores;
    ::sage::npu::rt::syncAll(loc);
}

// Flags between the cube and vector cores of a mixed kernel: compile, and report `unsupported`
// when reached (one simulated core per block has no partner core).
template <uint8_t modeId, pipe_t pipe>
__aicore__ inline void CrossCoreSetFlag(uint16_t flagId, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    (void)flagId;
    ::sage::npu::rt::crossCoreSync(loc);
}
template <uint8_t modeId = 0, pipe_t pipe = PIPE_S>
__aicore__ inline void CrossCoreWaitFlag(uint16_t flagId, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    (void)flagId;
    ::sage::npu::rt::crossCoreSync(loc);
}

} // namespace AscendC

inline void ffts_cross_core_sync(pipe_t pipe, uint64_t config, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    (void)pipe, (void)config;
    ::sage::npu::rt::crossCoreSync(loc);
}
inline void wait_flag_dev(int64_t flagId, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    (void)flagId;
    ::sage::npu::rt::crossCoreSync(loc);
}

// The CCE intrinsic spellings (set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0)) used by older kernels.
inline void set_flag(pipe_t src, pipe_t dst, event_t id, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    ::sage::npu::rt::setFlag(static_cast<::sage::npu::PipeId>(src), static_cast<::sage::npu::PipeId>(dst), id, loc);
}
inline void wait_flag(pipe_t src, pipe_t dst, event_t id, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    ::sage::npu::rt::waitFlag(static_cast<::sage::npu::PipeId>(src), static_cast<::sage::npu::PipeId>(dst), id, loc);
}
inline void pipe_barrier(pipe_t pipe, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    ::sage::npu::rt::pipeBarrier(static_cast<::sage::npu::PipeId>(pipe), loc);
}
