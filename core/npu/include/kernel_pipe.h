// TPipe, TQue, TQueBind and TBuf: local-memory allocation and the queues whose EnQue/DeQue and
// Alloc/Free carry the synchronisation between pipes (as the real framework inserts it).
#pragma once

#include "kernel_sync.h"
#include "kernel_tensor.h"

namespace AscendC {

// A queue's static configuration, passed as TQue's third template argument (`&conf`). The
// simulator's queues need none of it; the depth and buffer sizes come from InitBuffer.
struct TQueConfig {
    bool nd2nz = false;
    bool nz2nd = false;
    bool scmBlockGroup = false;
    uint32_t bufferLen = 0;
    uint32_t bufferNumber = 0;
    uint32_t consumerSize = 0;
    TPosition consumer[8] = {};
};

// The handle of a queue buffer that DeQue() without a type returns.
struct TBufHandle {
    ::sage::npu::LocalRef ref;
};

template <TPosition src, TPosition dst, int32_t depth, auto mask = 0> class TQueBind {
public:
    __aicore__ TQueBind() : id_(::sage::npu::rt::queueCreate(src, dst, depth)) {}
    template <typename T> __aicore__ LocalTensor<T> AllocTensor(::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
        return LocalTensor<T>(::sage::npu::rt::queueAlloc(id_, loc));
    }
    template <typename T>
    __aicore__ void FreeTensor(LocalTensor<T>& t, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
        ::sage::npu::rt::queueFree(id_, t.ref(), loc);
    }
    template <typename T>
    __aicore__ bool EnQue(const LocalTensor<T>& t, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
        ::sage::npu::rt::queueEnque(id_, t.ref(), loc);
        return true;
    }
    template <typename T> __aicore__ LocalTensor<T> DeQue(::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
        return LocalTensor<T>(::sage::npu::rt::queueDeque(id_, loc));
    }
    // The untyped DeQue: dequeues (with its synchronisation) and returns the buffer's handle.
    __aicore__ TBufHandle DeQue(::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
        return TBufHandle{::sage::npu::rt::queueDeque(id_, loc)};
    }
    // The forms naming the user positions (a bound queue used between VECIN and VECOUT).
    template <TPosition srcUserPos, TPosition dstUserPos, typename T>
    __aicore__ bool EnQue(const LocalTensor<T>& t, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
        ::sage::npu::rt::queueEnque(id_, t.ref(), loc);
        return true;
    }
    template <TPosition srcUserPos, TPosition dstUserPos, typename T>
    __aicore__ LocalTensor<T> DeQue(::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
        return LocalTensor<T>(::sage::npu::rt::queueDeque(id_, loc));
    }
    __aicore__ bool VacantInQue() const { return true; }
    __aicore__ bool HasTensorInQue() const { return ::sage::npu::rt::queueHasData(id_); }
    __aicore__ void FreeAllEvent() {}
    int queueId() const { return id_; }

private:
    int id_;
};

template <TPosition pos, int32_t depth, auto mask = 0> class TQue : public TQueBind<pos, pos, depth, mask> {};

template <TPosition pos = TPosition::VECCALC> class TBuf {
public:
    __aicore__ TBuf() : id_(::sage::npu::rt::bufCreate(pos)) {}
    template <typename T> __aicore__ LocalTensor<T> Get(::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
        return LocalTensor<T>(::sage::npu::rt::bufGet(id_, ~0u, 0, loc));
    }
    template <typename T>
    __aicore__ LocalTensor<T> Get(uint32_t len, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
        return LocalTensor<T>(::sage::npu::rt::bufGet(id_, len * uint32_t(sizeof(T)), 0, loc));
    }
    template <typename T>
    __aicore__ LocalTensor<T> GetWithOffset(uint32_t size, uint32_t bufOffset,
                                            ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
        return LocalTensor<T>(::sage::npu::rt::bufGet(id_, size * uint32_t(sizeof(T)), bufOffset, loc));
    }
    // A TBuf exposes the queue calls too; real kernels call FreeTensor on one.
    template <typename T> __aicore__ LocalTensor<T> AllocTensor(::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
        return Get<T>(loc);
    }
    template <typename T> __aicore__ void FreeTensor(LocalTensor<T>&) {}
    template <typename T> __aicore__ bool EnQue(const LocalTensor<T>&) { return true; }
    template <typename T> __aicore__ LocalTensor<T> DeQue(::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
        return Get<T>(loc);
    }
    int bufId() const { return id_; }

private:
    int id_;
};

class TPipe;
namespace detail {
inline TPipe*& currentPipe() {
    static thread_local TPipe* p = nullptr;
    return p;
}
} // namespace detail

class TPipe {
public:
    __aicore__ TPipe() {
        ::sage::npu::rt::pipeCreate(this);
        detail::currentPipe() = this;
    }
    __aicore__ ~TPipe() {
        ::sage::npu::rt::pipeDestroy(this);
        if (detail::currentPipe() == this) detail::currentPipe() = nullptr;
    }
    TPipe(const TPipe&) = delete;
    TPipe& operator=(const TPipe&) = delete;

    template <TPosition src, TPosition dst, int32_t depth, auto mask>
    __aicore__ bool InitBuffer(TQueBind<src, dst, depth, mask>& que, uint8_t num, uint32_t len,
                               ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
        return ::sage::npu::rt::queueInit(que.queueId(), num, len, loc);
    }
    template <TPosition pos, int32_t depth, auto mask>
    __aicore__ bool InitBuffer(TQue<pos, depth, mask>& que, uint8_t num, uint32_t len,
                               ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
        return ::sage::npu::rt::queueInit(que.queueId(), num, len, loc);
    }
    template <TPosition pos>
    __aicore__ bool InitBuffer(TBuf<pos>& buf, uint32_t len, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
        return ::sage::npu::rt::bufInit(buf.bufId(), len, loc);
    }
    // InitBufPool: carve a TBufPool out of the pipe's memory, or give it the start and length of
    // `share` (memory reuse between phases).
    template <class P>
    __aicore__ bool InitBufPool(P& pool, uint32_t len, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
        return ::sage::npu::rt::bufPoolInit(pool.poolId(), -1, len, -1, loc);
    }
    template <class P, class S>
    __aicore__ bool InitBufPool(P& pool, uint32_t len, S& share, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
        return ::sage::npu::rt::bufPoolInit(pool.poolId(), -1, len, share.poolId(), loc);
    }
    __aicore__ void Reset() { ::sage::npu::rt::pipeReset(this); }
    __aicore__ void Destroy() {}
    __aicore__ void Init() {}
    template <HardEvent evt> __aicore__ int8_t AllocEventID(::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
        return static_cast<int8_t>(::sage::npu::rt::fetchEventId(static_cast<int>(evt), loc));
    }
    template <HardEvent evt> __aicore__ void ReleaseEventID(int8_t id) {
        ::sage::npu::rt::releaseEventId(static_cast<int>(evt), id);
    }
    __aicore__ int8_t FetchEventID(HardEvent evt, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
        return static_cast<int8_t>(::sage::npu::rt::fetchEventId(static_cast<int>(evt), loc));
    }
    template <HardEvent evt> __aicore__ int8_t FetchEventID(::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
        return static_cast<int8_t>(::sage::npu::rt::fetchEventId(static_cast<int>(evt), loc));
    }
};

__aicore__ inline TPipe* GetTPipePtr() { return detail::currentPipe(); }

// TBufPool: a sub-region of one memory (from TPipe::InitBufPool or a parent pool's InitBufPool) whose
// InitBuffer calls take space from the region instead of the pipe; Reset rewinds that space so the
// next phase can InitBuffer over it (the buffers handed out before stay where they are). bufIDSize
// (how many buffers the real library tracks) does not limit the simulator.
template <TPosition pos, uint32_t bufIDSize = 4> class TBufPool {
public:
    __aicore__ TBufPool() : id_(::sage::npu::rt::bufPoolCreate(pos)) {}
    template <TPosition src, TPosition dst, int32_t depth, auto mask>
    __aicore__ bool InitBuffer(TQueBind<src, dst, depth, mask>& que, uint8_t num, uint32_t len,
                               ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
        return ::sage::npu::rt::queueInit(que.queueId(), num, len, loc, id_);
    }
    template <TPosition qpos, int32_t depth, auto mask>
    __aicore__ bool InitBuffer(TQue<qpos, depth, mask>& que, uint8_t num, uint32_t len,
                               ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
        return ::sage::npu::rt::queueInit(que.queueId(), num, len, loc, id_);
    }
    template <TPosition bpos>
    __aicore__ bool InitBuffer(TBuf<bpos>& buf, uint32_t len, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
        return ::sage::npu::rt::bufInit(buf.bufId(), len, loc, id_);
    }
    template <class P>
    __aicore__ bool InitBufPool(P& pool, uint32_t len, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
        return ::sage::npu::rt::bufPoolInit(pool.poolId(), id_, len, -1, loc);
    }
    template <class P, class S>
    __aicore__ bool InitBufPool(P& pool, uint32_t len, S& share, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
        return ::sage::npu::rt::bufPoolInit(pool.poolId(), id_, len, share.poolId(), loc);
    }
    __aicore__ void Reset(::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
        ::sage::npu::rt::bufPoolReset(id_, loc);
    }
    int poolId() const { return id_; }

private:
    int id_;
};

// PopStackBuffer: the memory of `pos` that no InitBuffer has reserved (the stack buffer), as a
// tensor; false when nothing is left. A later InitBuffer may hand out the same bytes.
template <typename T, TPosition pos>
__aicore__ inline bool PopStackBuffer(LocalTensor<T>& popLocal, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    const ::sage::npu::LocalRef r = ::sage::npu::rt::freeTail(pos, loc);
    popLocal = LocalTensor<T>(r);
    return r.bytes > 0;
}

__aicore__ inline int64_t GetBlockIdx() { return ::sage::npu::rt::blockIdx(); }
__aicore__ inline int64_t GetBlockNum() { return ::sage::npu::rt::blockNum(); }
__aicore__ inline int64_t GetSubBlockIdx() { return 0; }
__aicore__ inline int64_t GetSubBlockNum() { return 1; }
__aicore__ inline int64_t GetTaskRatio() { return 1; }
__aicore__ inline int64_t GetSystemCycle() { return 0; }

} // namespace AscendC

using AscendC::GetTPipePtr;  // also declared outside the namespace by the device toolchain
