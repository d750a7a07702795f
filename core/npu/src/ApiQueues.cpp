// TPipe / TQue / TBuf runtime: local-memory allocation with capacity checks, queue discipline
// (depth, buffer count, outstanding allocations) and the syncs the framework inserts.
#include "SimImpl.h"

#include <algorithm>

namespace sage::npu {
namespace {

uint32_t roundUp32(uint64_t v) { return uint32_t((v + 31) / 32 * 32); }

std::string describeAllocations(const CoreContext& c, Mem m) {
    std::string s;
    for (const auto& a : c.allocations[size_t(m)])
        s += "\n  - " + a.what + " (line " + std::to_string(a.line) + "): " + std::to_string(a.bytes) + " B";
    return s.empty() ? "\n  (nothing else allocated)" : s;
}

// Reserves `bytes` of the memory behind `pos`, or reports what is already there.
uint32_t reserve(Simulation::Impl& s, Pos pos, uint32_t bytes, const std::string& what, const Loc& loc) {
    CoreContext& c = s.ctx();
    Mem m = memOf(pos);
    uint64_t top = c.allocTop[size_t(m)];
    if (top + bytes > c.capacity[size_t(m)]) {
        s.report("capacity_exceeded",
                 "InitBuffer for " + what + " needs " + std::to_string(bytes) + " bytes of " + memName(m) +
                     " but only " + std::to_string(c.capacity[size_t(m)] - top) + " of the " +
                     std::to_string(c.capacity[size_t(m)]) + " usable bytes are left. Already allocated:" +
                     describeAllocations(c, m) + "\nReduce the tile length or the number of buffers.",
                 loc, true);
    }
    c.allocTop[size_t(m)] = uint32_t(top + bytes);
    c.allocations[size_t(m)].push_back({what, bytes, loc.line()});
    return uint32_t(top);
}

// Reserves `bytes` inside TBufPool `pool` (or from the pipe when pool is -1) for a buffer of `pos`.
uint32_t reserveIn(Simulation::Impl& s, int pool, Pos pos, uint32_t bytes, const std::string& what, const Loc& loc) {
    if (pool < 0) return reserve(s, pos, bytes, what, loc);
    CoreContext& c = s.ctx();
    BufPoolState& p = c.bufPools.at(size_t(pool));
    if (!p.initialised)
        s.report("tbuf_not_initialised", "InitBuffer for " + what + " in a TBufPool that InitBufPool has not set up",
                 loc, true);
    if (memOf(p.pos) != memOf(pos))
        s.report("capacity_exceeded", "InitBuffer for " + what + ": the TBufPool is in " + memName(memOf(p.pos)) +
                 ", the buffer belongs in " + memName(memOf(pos)), loc, true);
    if (uint64_t(p.top) + bytes > uint64_t(p.base) + p.len)
        s.report("capacity_exceeded", "InitBuffer for " + what + " needs " + std::to_string(bytes) +
                 " bytes but its TBufPool has " + std::to_string(p.base + p.len - p.top) + " of its " +
                 std::to_string(p.len) + " left. Enlarge the pool (InitBufPool) or Reset it first.", loc, true);
    const uint32_t at = p.top;
    p.top += bytes;
    return at;
}

} // namespace

namespace rt {
LocalRef freeTail(Pos pos, Loc loc) {
    auto& s = activeImpl();
    CoreContext& c = s.ctx();
    const Mem m = memOf(pos);
    const uint32_t top = (c.allocTop[size_t(m)] + 31u) / 32u * 32u;
    s.scalarCost(s.prof.scalarIssueCycles, loc);
    return {pos, top, top < c.capacity[size_t(m)] ? c.capacity[size_t(m)] - top : 0u};
}
} // namespace rt

namespace {

QueueState& queueAt(Simulation::Impl& s, int q, const Loc& loc) {
    CoreContext& c = s.ctx();
    if (q < 0 || size_t(q) >= c.queues.size())
        s.report("queue_not_initialised", "queue used outside the block that created it", loc, true);
    return c.queues[size_t(q)];
}

int findBuffer(QueueState& qs, const LocalRef& ref) {
    for (size_t i = 0; i < qs.buffers.size(); ++i)
        if (qs.buffers[i].addr == ref.addr) return int(i);
    return -1;
}

} // namespace

namespace rt {

void pipeCreate(void*) {}
void pipeDestroy(void*) {}
void pipeReset(void*) {}

int queueCreate(Pos src, Pos dst, int depth) {
    CoreContext& c = activeImpl().ctx();
    QueueState q;
    q.src = src;
    q.dst = dst;
    q.depth = depth;
    c.queues.push_back(std::move(q));
    return int(c.queues.size() - 1);
}

bool queueInit(int queue, int num, uint32_t len, Loc loc, int pool) {
    auto& s = activeImpl();
    QueueState& q = queueAt(s, queue, loc);
    if (num < 1 || num > 8)
        s.report("capacity_exceeded", "InitBuffer: buffer count " + std::to_string(num) + " must be 1..8", loc, true);
    uint32_t len32 = roundUp32(len);
    std::string what = std::string("TQue<") + posName(q.src) + "> " + std::to_string(num) + " x " +
                       std::to_string(len32) + " B";
    uint32_t base = reserveIn(s, pool, q.src, len32 * uint32_t(num), what, loc);
    q.len = len32;
    q.initialised = true;
    q.initLine = loc.line();
    q.buffers.assign(size_t(num), QueueBuffer{});
    for (int i = 0; i < num; ++i) q.buffers[size_t(i)].addr = base + uint32_t(i) * len32;
    q.fifo.clear();
    q.nextAlloc = 0;
    s.scalarCost(s.prof.scalarIssueCycles, loc);
    return true;
}

LocalRef queueAlloc(int queue, Loc loc) {
    auto& s = activeImpl();
    CoreContext& c = s.ctx();
    QueueState& q = queueAt(s, queue, loc);
    if (!q.initialised)
        s.report("queue_not_initialised", "AllocTensor on a queue that InitBuffer never set up: call "
                 "pipe.InitBuffer(queue, num, bytes) first", loc, true);
    int& outstanding = c.outstandingAllocs[size_t(q.src)];
    if (outstanding >= s.prof.maxAllocPerPosition)
        s.report("too_many_allocs",
                 std::string("AllocTensor: ") + std::to_string(outstanding) + " tensors of position " + posName(q.src) +
                     " are already allocated and not freed; the limit is " +
                     std::to_string(s.prof.maxAllocPerPosition) + ". FreeTensor each tensor after its last use.",
                 loc, true);
    int n = int(q.buffers.size()), pick = -1;
    for (int i = 0; i < n; ++i) {
        int b = (q.nextAlloc + i) % n;
        if (q.buffers[size_t(b)].state == QueueBuffer::Free) {
            pick = b;
            break;
        }
    }
    if (pick < 0)
        s.report("alloc_no_free_buffer",
                 "AllocTensor: all " + std::to_string(n) + " buffers of this " + posName(q.src) +
                     " queue are in use (allocated or enqueued, not freed). On hardware this waits forever. "
                     "FreeTensor a buffer before allocating again, or InitBuffer with more buffers.",
                 loc, true);
    q.nextAlloc = (pick + 1) % n;
    QueueBuffer& b = q.buffers[size_t(pick)];
    b.state = QueueBuffer::Allocated;
    ++outstanding;
    if (b.freeSyncPending) {  // the producer may not overwrite until the consumer has finished reading
        PipeId prod = producerPipe(q.src, s.splitArch());
        PipeClock& pc = c.pipes[size_t(prod)];
        pc.barrier = std::max(pc.barrier, b.freeTime);
        joinInto(c.clock[size_t(prod)], b.freeClock);
        b.freeSyncPending = false;
    }
    s.scalarCost(s.prof.scalarIssueCycles, loc);
    return LocalRef{q.src, b.addr, q.len};
}

void queueFree(int queue, const LocalRef& ref, Loc loc) {
    auto& s = activeImpl();
    CoreContext& c = s.ctx();
    QueueState& q = queueAt(s, queue, loc);
    int i = findBuffer(q, ref);
    if (i < 0 || q.buffers[size_t(i)].state != QueueBuffer::Allocated)
        s.report("invalid_free",
                 i < 0 ? "FreeTensor of a tensor that this queue did not allocate"
                       : (q.buffers[size_t(i)].state == QueueBuffer::Free
                              ? "FreeTensor of a tensor that is already free (freed twice?)"
                              : "FreeTensor of a tensor that is still enqueued: DeQue it first"),
                 loc, true);
    QueueBuffer& b = q.buffers[size_t(i)];
    PipeId cons = consumerPipe(q.dst, s.splitArch());
    b.state = QueueBuffer::Free;
    b.freeSyncPending = true;
    b.freeTime = c.pipes[size_t(cons)].lastDone;
    b.freeClock = c.clock[size_t(cons)];
    --c.outstandingAllocs[size_t(q.src)];
    s.scalarCost(s.prof.scalarIssueCycles, loc);
}

void queueEnque(int queue, const LocalRef& ref, Loc loc) {
    auto& s = activeImpl();
    CoreContext& c = s.ctx();
    QueueState& q = queueAt(s, queue, loc);
    int i = findBuffer(q, ref);
    if (i < 0 || q.buffers[size_t(i)].state != QueueBuffer::Allocated)
        s.report("invalid_enque", "EnQue of a tensor that was not allocated from this queue (or is already enqueued)",
                 loc, true);
    if (int(q.fifo.size()) >= q.depth)
        s.report("enque_beyond_depth",
                 "EnQue: the queue already holds " + std::to_string(q.fifo.size()) +
                     " tensor(s) not yet DeQue'd and its depth is " + std::to_string(q.depth) +
                     ". On hardware this blocks forever. DeQue before the next EnQue, or declare the TQue "
                     "with a larger depth.",
                 loc, true);
    QueueBuffer& b = q.buffers[size_t(i)];
    PipeId prod = producerPipe(q.src, s.splitArch());
    b.state = QueueBuffer::Enqueued;
    b.enqTime = c.pipes[size_t(prod)].lastDone;
    b.enqClock = c.clock[size_t(prod)];
    b.enqFlow = s.nextFlow++;
    s.scalarCost(s.prof.scalarIssueCycles, loc);
    s.recordEvent(uint8_t(prod), b.enqTime, b.enqTime, "EnQue", 0, 0, s.fileId(loc.file_name()), loc.line(), b.enqFlow,
                  1);
    q.fifo.push_back(i);
}

LocalRef queueDeque(int queue, Loc loc) {
    auto& s = activeImpl();
    CoreContext& c = s.ctx();
    QueueState& q = queueAt(s, queue, loc);
    if (q.fifo.empty())
        s.report("deque_empty",
                 "DeQue on an empty queue: nothing was EnQue'd. On hardware the consumer pipe waits forever. "
                 "EnQue the tensor after filling it, before this DeQue.",
                 loc, true);
    int i = q.fifo.front();
    q.fifo.pop_front();
    QueueBuffer& b = q.buffers[size_t(i)];
    PipeId cons = consumerPipe(q.dst, s.splitArch());
    PipeClock& pc = c.pipes[size_t(cons)];
    pc.barrier = std::max(pc.barrier, b.enqTime);
    joinInto(c.clock[size_t(cons)], b.enqClock);
    b.state = QueueBuffer::Allocated;
    s.scalarCost(s.prof.scalarIssueCycles, loc);
    uint64_t at = std::max({pc.free, pc.barrier, c.scalarTime});
    s.recordEvent(uint8_t(cons), at, at, "DeQue", 0, 0, s.fileId(loc.file_name()), loc.line(), b.enqFlow, 2);
    return LocalRef{q.src, b.addr, q.len};
}

bool queueHasData(int queue) {
    auto& s = activeImpl();
    return !queueAt(s, queue, Loc::current()).fifo.empty();
}

int bufCreate(Pos pos) {
    CoreContext& c = activeImpl().ctx();
    BufState b;
    b.pos = pos;
    c.bufs.push_back(b);
    return int(c.bufs.size() - 1);
}

bool bufInit(int buf, uint32_t len, Loc loc, int pool) {
    auto& s = activeImpl();
    CoreContext& c = s.ctx();
    BufState& b = c.bufs.at(size_t(buf));
    uint32_t len32 = roundUp32(len);
    b.addr = reserveIn(s, pool, b.pos, len32,
                       std::string("TBuf<") + posName(b.pos) + "> " + std::to_string(len32) + " B", loc);
    b.len = len32;
    b.initialised = true;
    b.initLine = loc.line();
    s.scalarCost(s.prof.scalarIssueCycles, loc);
    return true;
}

LocalRef bufGet(int buf, uint32_t bytes, uint32_t offset, Loc loc) {
    auto& s = activeImpl();
    CoreContext& c = s.ctx();
    BufState& b = c.bufs.at(size_t(buf));
    if (!b.initialised) {
        // Real hardware hands out a tensor here and only misbehaves if it is used (a kernel may
        // Get a scratch buffer on a path that never touches it), so warn and return an empty
        // tensor: any API that then touches it fails with vector_count_exceeds_tensor.
        s.report("tbuf_not_initialised",
                 "TBuf::Get on a buffer that InitBuffer never set up: the tensor is empty and must not be used. "
                 "Call pipe.InitBuffer(buf, bytes) first if this path uses it.",
                 loc, false, "warning");
        return LocalRef{b.pos, 0, 0};
    }
    if (bytes == ~0u) bytes = b.len - std::min(offset, b.len);
    if (uint64_t(offset) + bytes > b.len)
        s.report("capacity_exceeded",
                 "TBuf::Get asks for " + std::to_string(bytes) + " bytes at offset " + std::to_string(offset) +
                     " but InitBuffer gave the buffer " + std::to_string(b.len) + " bytes",
                 loc, true);
    return LocalRef{b.pos, b.addr + offset, bytes};
}

int fetchEventId(int hardEvent, Loc loc) {
    auto& s = activeImpl();
    CoreContext& c = s.ctx();
    int& next = c.nextEventId[size_t(hardEvent % 64)];
    int id = next % std::max(1, s.prof.eventIds);
    ++next;
    s.scalarCost(s.prof.scalarIssueCycles, loc);
    return id;
}

void releaseEventId(int, int) {}

uint8_t* localBase(Pos pos) { return activeImpl().ctx().mem[size_t(memOf(pos))].data(); }

uint8_t* scalarLocal(const LocalRef& ref, uint64_t byteOffset, uint32_t bytes, bool write, Loc loc) {
    auto& s = activeImpl();
    CoreContext& c = s.ctx();
    if (byteOffset + bytes > ref.bytes)
        s.report("local_out_of_bounds",
                 std::string(write ? "SetValue" : "GetValue") + " at element " + std::to_string(byteOffset / bytes) +
                     " is past the end of the LocalTensor (" + std::to_string(ref.bytes / bytes) + " elements)",
                 loc, true);
    s.scalarAccess(ref, byteOffset, bytes, write, loc);
    return c.localPtr(ref) + byteOffset;
}

uint8_t* scalarGm(const GmRef& gm, uint64_t byteOffset, uint32_t bytes, bool write, Loc loc) {
    auto& s = activeImpl();
    CoreContext& c = s.ctx();
    uint8_t* p = gm.ptr + byteOffset;
    s.checkGm(p, gm.limit, bytes, write ? "GlobalTensor::SetValue" : "GlobalTensor::GetValue", loc);
    uint64_t line = s.gmDeviceAddress(p) / std::max<uint32_t>(1, s.prof.dcacheLineBytes);
    uint64_t& tag = c.dcacheTags[line % c.dcacheTags.size()];
    bool hit = tag == line;
    tag = line;
    s.scalarCost(hit ? s.prof.scalarGmHitCycles : c.scalarGmMiss, loc);
    (write ? s.launch->gmBytesWritten : s.launch->gmBytesRead) += bytes;
    return p;
}

void scalarGmStore(const GmRef& gm, uint64_t byteOffset, const void* value, uint32_t bytes, Loc loc) {
    uint8_t* p = scalarGm(gm, byteOffset, bytes, true, loc);
    std::memcpy(p, value, bytes);
    activeImpl().gmWrites.recordWrite(p, bytes);
}

int bufPoolCreate(Pos pos) {
    CoreContext& c = activeImpl().ctx();
    BufPoolState p;
    p.pos = pos;
    c.bufPools.push_back(p);
    return int(c.bufPools.size() - 1);
}

bool bufPoolInit(int pool, int parent, uint32_t len, int share, Loc loc) {
    auto& s = activeImpl();
    CoreContext& c = s.ctx();
    BufPoolState& p = c.bufPools.at(size_t(pool));
    const uint32_t len32 = roundUp32(len);
    if (share >= 0) {
        // The documented reuse: the same start, and a length no larger than the shared pool's.
        const BufPoolState& other = c.bufPools.at(size_t(share));
        if (!other.initialised || memOf(other.pos) != memOf(p.pos) || len32 > other.len)
            s.report("capacity_exceeded", "InitBufPool: a pool of " + std::to_string(len32) + " B in " +
                     memName(memOf(p.pos)) + " cannot share a pool of " + std::to_string(other.len) + " B in " +
                     memName(memOf(other.pos)) + " (it must be initialised, in the same memory and at least as long)",
                     loc, true);
        p.base = other.base;
    } else {
        p.base = reserveIn(s, parent, p.pos, len32, std::string("TBufPool<") + posName(p.pos) + "> " +
                           std::to_string(len32) + " B", loc);
    }
    p.len = len32;
    p.top = p.base;
    p.initialised = true;
    s.scalarCost(s.prof.scalarIssueCycles, loc);
    return true;
}

void bufPoolReset(int pool, Loc loc) {
    auto& s = activeImpl();
    BufPoolState& p = s.ctx().bufPools.at(size_t(pool));
    p.top = p.base;
    s.scalarCost(s.prof.scalarIssueCycles, loc);
}

} // namespace rt
} // namespace sage::npu
