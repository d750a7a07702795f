// atvoss/elewise/elewise_sch.h: the elementwise schedule. ElementwiseSch<key, Dag> splits dim0
// elements over the blocks (blockFormer each), each block's share into UB tiles (ubFormer, or what
// fits the UB budget), and per tile copies the inputs in with DataCopyPad, runs the DAG and copies
// the outputs out. Use:
//   ElementwiseSch<0UL, MyDag::OpDag> sch(&tiling.baseTiling, &pipe);
//   sch.SetVar<float, 0>(tiling.scalar);   // for Placeholder::Var<float, 0>
//   sch.Init(x, y);                        // GM inputs (In0, In1, ...) then outputs (Out0, ...)
//   sch.Process();
#pragma once

#include "atvoss/elewise/elewise_base_struct.h"
#include "atvoss/util/dag_tile.h"

namespace Ops::Base {

namespace atvoss_detail {

// UB the schedules give their tiles: the TPipe limit of the smallest profile, less room for an
// op's own buffers.
constexpr uint32_t kTileUbBudget = 128u * 1024u;

__aicore__ inline uint32_t tileElemsFor(uint32_t bytesPerElem, int64_t ubFormer, uint32_t align) {
    uint32_t n = bytesPerElem == 0 ? 1024u : kTileUbBudget / bytesPerElem;
    if (ubFormer > 0 && uint64_t(ubFormer) < n) n = uint32_t(ubFormer);
    n = (n + align - 1) / align * align;
    if (uint64_t(n) * bytesPerElem > kTileUbBudget) n = kTileUbBudget / bytesPerElem / align * align;
    return n < align ? align : n;
}

// This block's share [begin, begin + count) of `total` units, `former` per block (0: split evenly
// over the launched blocks); false when it has none.
__aicore__ inline bool blockShareOf(int64_t total, int64_t former, int64_t& begin, int64_t& count) {
    const int64_t blocks = AscendC::GetBlockNum() > 0 ? AscendC::GetBlockNum() : 1;
    if (former <= 0) former = (total + blocks - 1) / blocks;
    begin = int64_t(AscendC::GetBlockIdx()) * former;
    if (total <= 0 || begin >= total) return false;
    count = total - begin < former ? total - begin : former;
    return true;
}

// Copies `cols` elements from GM into a UB row of `stride` elements and zeroes the padding blocks
// the copy leaves unwritten (the DAG computes over whole rows).
template <class T>
__aicore__ inline void copyRowPadded(const AscendC::LocalTensor<T>& dst, const AscendC::GlobalTensor<T>& src,
                                     uint32_t cols, uint32_t stride) {
    AscendC::DataCopyExtParams p(1, cols * uint32_t(sizeof(T)), 0, 0, 0);
    AscendC::DataCopyPadExtParams<T> pad{false, 0, 0, T{}};
    AscendC::DataCopyPad(dst, src, p, pad);
    const uint32_t written = (cols * uint32_t(sizeof(T)) + 31u) / 32u * 32u / uint32_t(sizeof(T));
    if (written < stride) Vec::Duplicate<T>(dst[written], 0, stride - written);
}

// Contiguous GM <-> UB copies of one elementwise tile starting at element `base`.
template <class Dag> struct FlatIo {
    int64_t base = 0;
    template <int K, class T> __aicore__ inline void Load(AscendC::LocalTensor<T>& dst, DagIo<Dag>& gm, uint32_t count) {
        AscendC::GlobalTensor<T> g;
        g.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(gm.in[K]) + base, count);
        AscendC::DataCopyExtParams p(1, count * uint32_t(sizeof(T)), 0, 0, 0);
        AscendC::DataCopyPadExtParams<T> pad{false, 0, 0, T{}};
        AscendC::DataCopyPad(dst, g, p, pad);
    }
    template <int K, class T> __aicore__ inline void Store(AscendC::LocalTensor<T>& src, DagIo<Dag>& gm, uint32_t count) {
        AscendC::GlobalTensor<T> g;
        g.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(gm.out[K]) + base, count);
        AscendC::DataCopyExtParams p(1, count * uint32_t(sizeof(T)), 0, 0, 0);
        AscendC::DataCopyPad(g, src, p);
    }
    template <class Node, class D, class S> __aicore__ inline void Reduce(D&, S&, uint32_t) {
        static_assert(sizeof(Node) == 0, "atvoss: a Vec::Reduce*Op needs the reduce schedule (ReduceSch), not this one");
    }
};

} // namespace atvoss_detail

template <uint64_t key, class Dag> class ElementwiseSch {
public:
    __aicore__ inline ElementwiseSch(const EleBaseTilingFields* tiling, AscendC::TPipe* pipe = nullptr)
        : tiling_(*tiling), pipe_(pipe) {}
    __aicore__ inline explicit ElementwiseSch(const EleBaseTilingFields& tiling) : ElementwiseSch(&tiling, nullptr) {}
    template <class Wrapper> requires requires(Wrapper w) { w.baseTiling; }
    __aicore__ inline explicit ElementwiseSch(const Wrapper* t, AscendC::TPipe* pipe = nullptr) : ElementwiseSch(&t->baseTiling, pipe) {}
    template <class Wrapper> requires requires(Wrapper w) { w.baseTiling; }
    __aicore__ inline explicit ElementwiseSch(const Wrapper& t) : ElementwiseSch(&t.baseTiling, nullptr) {}

    template <class T, int N> __aicore__ inline void SetVar(T v) { gm_.template setVar<T, N>(v); }
    template <class... A> __aicore__ inline void Init(A... addrs) { gm_.bind(addrs...); }

    __aicore__ inline void Process() {
        int64_t begin = 0, length = 0;
        if (!blockShare(begin, length)) return;
        AscendC::TPipe* pipe = pipe_;
        if (pipe == nullptr) pipe = new AscendC::TPipe();  // freed at the end: buffers live for Process only
        tile_.Init(pipe, atvoss_detail::tileElemsFor(tile_.kBytesPerElem, tiling_.ubFormer, 32));
        const int64_t step = tile_.TileElems();
        atvoss_detail::FlatIo<Dag> io;
        for (int64_t done = 0; done < length; done += step) {
            io.base = begin + done;
            const int64_t n = length - done < step ? length - done : step;
            tile_.Run(io, gm_, uint32_t(n));
        }
        if (pipe_ == nullptr) delete pipe;
    }

private:
    // This block's elements [begin, begin + length); false when it has none.
    __aicore__ inline bool blockShare(int64_t& begin, int64_t& length) const {
        return atvoss_detail::blockShareOf(tiling_.dim0, tiling_.blockFormer, begin, length);
    }

    EleBaseTilingFields tiling_;
    AscendC::TPipe* pipe_;
    atvoss_detail::DagIo<Dag> gm_;
    atvoss_detail::DagTile<Dag> tile_;
};

// The same schedule under the names of its 16-byte-aligned and scalar-carrying variants.
template <uint64_t key, class Dag> using ElementwiseSch16B = ElementwiseSch<key, Dag>;
template <class TilingT, uint64_t key, class Dag> using ElementwiseSchWithScalar = ElementwiseSch<key, Dag>;

} // namespace Ops::Base
