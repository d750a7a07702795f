// atvoss/reduce/reduce_sch.h: the reduce schedule. A reduce DAG has exactly one Vec::Reduce*Op
// node; the nodes it depends on (the "pre" part: CopyIn and elementwise work) run over tiles of
// the reduced axis, the reduction folds them, and the nodes after it (the "post" part: e.g. a
// Muls by 1/n and a Cast) run over a group of results before the CopyOut. Input [outer, R, inner]:
//   inner == 1: a tile is a contiguous chunk of R; the chunks are combined lane by lane into an
//               accumulator with vector Add/Max/Min, whose lanes are folded at the end;
//   inner > 1:  a tile is R-rows x inner-columns (rows padded to 32 elements); rows are combined
//               into the column results with vector Add/Max/Min.
// Other folds (prod, any, all, nansum) and the other data types combine on the scalar unit.
// Use: ReduceSch<REDUCE_TPL_VALUE, Dag> op(&tiling); op.Init(&pipe, x, y, workspace);
//      op.SetVar<float, 0>(v); op.Process(emptyValue);
#pragma once

#include "atvoss/elewise/elewise_sch.h"
#include "atvoss/reduce/reduce_operator.h"
#include "atvoss/reduce/reduce_tiling_data.h"
#include "atvoss/reduce/reduce_tiling_key_decl.h"

namespace Ops::Base {
namespace ReduceOpTmpl {
// Reduce kernels say `using namespace Ops::Base::ReduceOpTmpl` and then name the templates'
// other types (ReduceOpTilingData, ElementwiseSch, Bind) unqualified.
using namespace ::Ops::Base;

namespace detail {
using namespace ::Ops::Base::atvoss_detail;

template <class Node> constexpr bool isReduceNode() {
    if constexpr (IsBind<Node>::value) return Node::Fun::role == Vec::OpRole::Reduce;
    else return false;
}
template <class Acc, class... N> struct KeepReduceNodes {
    using type = Acc;
};
template <class... A, class H, class... N> struct KeepReduceNodes<Elems<A...>, H, N...> {
    using type = typename KeepReduceNodes<std::conditional_t<isReduceNode<H>(), Elems<A..., H>, Elems<A...>>, N...>::type;
};
template <class Nodes> struct ReduceNodeOf;
template <class... N> struct ReduceNodeOf<Elems<N...>> {
    static constexpr int count = (int(isReduceNode<N>()) + ... + 0);
    using Found = typename KeepReduceNodes<Elems<>, N...>::type;
};

template <class Dag> struct ReduceParts {
    using ReduceNode = typename FirstOf<typename ReduceNodeOf<typename Dag::Nodes>::Found>::type;
    using Src = typename FirstOf<typename ReduceNode::ArgList>::type;
    using PreNodes = typename Collect<Src, Elems<>>::type;
    struct Pre {
        template <class Node> static constexpr bool keep() { return ListHas<Node, PreNodes>::value; }
    };
    struct Post {
        template <class Node> static constexpr bool keep() {
            return !ListHas<Node, PreNodes>::value && !isReduceNode<Node>();
        }
    };
};

// Rows [r0, r0 + rows) of the reduced axis, columns [i0, i0 + cols) of the inner axis, of outer
// row o; each row padded to `stride` elements.
template <class Dag> struct ReduceRowIo {
    int64_t rowBase = 0;  // GM element of (o, r0, i0)
    int64_t inner = 1;
    uint32_t rows = 0, cols = 0, stride = 0;
    template <int K, class T> __aicore__ inline void Load(AscendC::LocalTensor<T>& dst, DagIo<Dag>& gm, uint32_t) {
        AscendC::GlobalTensor<T> g;
        g.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(gm.in[K]));
        for (uint32_t r = 0; r < rows; ++r) copyRowPadded(dst[r * stride], g[rowBase + int64_t(r) * inner], cols, stride);
    }
    template <int K, class T> __aicore__ inline void Store(AscendC::LocalTensor<T>&, DagIo<Dag>&, uint32_t) {}
    template <class Node, class D, class S> __aicore__ inline void Reduce(D&, S&, uint32_t) {}
};

} // namespace detail

template <uint32_t PatternID, uint32_t LoopARCount, uint32_t LoopInnerARCount, class Dag> class ReduceSch {
    using Parts = detail::ReduceParts<Dag>;
    using RNode = typename Parts::ReduceNode;
    using Src = typename Parts::Src;
    using T = typename RNode::DType;
    using Op = typename RNode::Fun;
    static_assert(detail::ReduceNodeOf<typename Dag::Nodes>::count == 1,
                  "atvoss: a reduce DAG has exactly one Vec::Reduce*Op node");
    static_assert(std::is_same_v<typename Src::DType, T>,
                  "atvoss: the Vec::Reduce*Op's input must have the reduction's type (Cast it first)");

public:
    __aicore__ inline explicit ReduceSch(const ReduceOpTilingData* tiling) : t_(*tiling) {}
    template <class W> requires requires(W w) { w.reduceTiling; }
    __aicore__ inline explicit ReduceSch(const W* tiling) : t_(tiling->reduceTiling) {}

    template <class V, int N> __aicore__ inline void SetVar(V v) { gm_.template setVar<V, N>(v); }
    // GM inputs, outputs, then (optionally) the workspace, which this schedule does not need.
    template <class... A> __aicore__ inline void Init(AscendC::TPipe* pipe, A... addrs) {
        pipe_ = pipe;
        bindSkippingWorkspace(addrs...);
    }

    template <class E = T> __aicore__ inline void Process(E emptyValue = E{}) {
        int64_t o0 = 0, rows = 0;
        if (!checkTiling() || !blockRows(o0, rows)) return;
        if (t_.reduceSize == 0) return writeEmpty(o0, rows, emptyValue);
        tile_.Init(pipe_, atvoss_detail::tileElemsFor(tile_.kBytesPerElem, t_.ubFormer, 32));
        pipe_->InitBuffer(accBuf_, tile_.TileElems() * uint32_t(sizeof(T)));
        acc_ = accBuf_.template Get<T>();
        if (t_.innerSize == 1) processRows(o0, rows);
        else processColumns(o0, rows);
    }

private:
    template <class... A> __aicore__ inline void bindSkippingWorkspace(A... addrs) {
        constexpr int n = Dag::kInputs + Dag::kOutputs;
        static_assert(sizeof...(A) == n || sizeof...(A) == n + 1,
                      "atvoss: ReduceSch::Init takes the pipe, the DAG's GM inputs, its outputs and optionally the "
                      "workspace");
        GM_ADDR all[] = {reinterpret_cast<GM_ADDR>(addrs)...};
        for (int i = 0; i < Dag::kInputs; ++i) gm_.in[i] = all[i];
        for (int i = 0; i < Dag::kOutputs; ++i) gm_.out[i] = all[Dag::kInputs + i];
    }
    __aicore__ inline bool checkTiling() const {
        const bool ok = t_.outerSize >= 0 && t_.reduceSize >= 0 && t_.innerSize >= 1;
        ::sage::npu::rt::kernelAssert(ok, "ReduceSch: the tiling data needs outerSize >= 0, reduceSize >= 0 and "
                                          "innerSize >= 1", nullptr, std::source_location::current());
        return ok;
    }
    __aicore__ inline bool blockRows(int64_t& begin, int64_t& count) const {
        return atvoss_detail::blockShareOf(t_.outerSize, t_.blockFormer, begin, count);
    }
    template <class E> __aicore__ inline void writeEmpty(int64_t o0, int64_t rows, E v) {
        using Out = typename atvoss_detail::FirstOf<typename Dag::OutList>::type;
        using OT = typename atvoss_detail::FirstOf<typename Out::ArgList>::type::DType;
        AscendC::GlobalTensor<OT> g;
        g.SetGlobalBuffer(reinterpret_cast<__gm__ OT*>(gm_.out[0]));
        for (int64_t e = o0 * t_.innerSize; e < (o0 + rows) * t_.innerSize; ++e) g.SetValue(e, Vec::sc::convert<OT>(v));
    }

    // dst[0, n) = combine(dst, src) lane by lane: vector Add/Max/Min where they exist.
    __aicore__ inline void combineInto(AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, uint32_t n) {
        constexpr bool vec = Vec::kVecArith<T>;
        if constexpr (vec && std::is_base_of_v<Vec::SumFold, Op>) AscendC::Add(dst, dst, src, int32_t(n));
        else if constexpr (vec && std::is_base_of_v<Vec::MaxFold, Op>) AscendC::Max(dst, dst, src, int32_t(n));
        else if constexpr (vec && std::is_base_of_v<Vec::MinFold, Op>) AscendC::Min(dst, dst, src, int32_t(n));
        else Vec::sc::map(dst, n, [](auto a, auto b) { return Op::combine(a, decltype(a)(b)); }, dst, src);
    }
    __aicore__ inline void fillIdentity(AscendC::LocalTensor<T>& dst, uint32_t n) {
        Vec::Duplicate<T>(dst, Op::template identity<Vec::sc::Calc<T>>(), n);
        AscendC::PipeBarrier<PIPE_ALL>();
    }

    // inner == 1: output o = fold of input[o * R, (o + 1) * R).
    __aicore__ inline void processRows(int64_t o0, int64_t rows) {
        const uint32_t cap = tile_.TileElems();
        auto& results = tile_.template Tensor<RNode>();
        for (int64_t g = 0; g < rows; g += cap) {
            const uint32_t k = uint32_t(rows - g < cap ? rows - g : cap);
            for (uint32_t j = 0; j < k; ++j) results.SetValue(j, foldRow(o0 + g + j));
            AscendC::PipeBarrier<PIPE_ALL>();
            atvoss_detail::FlatIo<Dag> out;
            out.base = o0 + g;
            tile_.template Run<typename Parts::Post>(out, gm_, k);
        }
    }
    __aicore__ inline T foldRow(int64_t o) {
        const uint32_t cap = tile_.TileElems();
        const int64_t R = t_.reduceSize;
        const uint32_t lanes = uint32_t(R < cap ? R : cap);
        fillIdentity(acc_, lanes);
        atvoss_detail::FlatIo<Dag> in;
        for (int64_t r = 0; r < R; r += cap) {
            in.base = o * R + r;
            const uint32_t c = uint32_t(R - r < cap ? R - r : cap);
            tile_.template Run<typename Parts::Pre>(in, gm_, c);
            combineInto(acc_, tile_.template Tensor<Src>(), c);
            AscendC::PipeBarrier<PIPE_ALL>();
        }
        auto v = Op::template identity<Vec::sc::Calc<T>>();
        for (uint32_t i = 0; i < lanes; ++i) v = Op::combine(v, Vec::sc::at(acc_, i));
        return Vec::sc::convert<T>(v);
    }

    // inner > 1: outputs (o, i) for a chunk of columns, folding R rows into the result tensor.
    __aicore__ inline void processColumns(int64_t o0, int64_t rows) {
        const uint32_t cap = tile_.TileElems();
        const int64_t inner = t_.innerSize, R = t_.reduceSize;
        const uint32_t colChunk = inner <= int64_t(cap) ? uint32_t(inner) : cap;
        detail::ReduceRowIo<Dag> in;
        in.inner = inner;
        in.stride = (colChunk + 31u) / 32u * 32u;
        const uint32_t rowsPerTile = cap / in.stride;
        auto& results = tile_.template Tensor<RNode>();
        for (int64_t o = o0; o < o0 + rows; ++o)
            for (int64_t i0 = 0; i0 < inner; i0 += colChunk) {
                in.cols = uint32_t(inner - i0 < colChunk ? inner - i0 : colChunk);
                fillIdentity(results, in.cols);
                for (int64_t r = 0; r < R; r += rowsPerTile) {
                    in.rows = uint32_t(R - r < rowsPerTile ? R - r : rowsPerTile);
                    in.rowBase = (o * R + r) * inner + i0;
                    tile_.template Run<typename Parts::Pre>(in, gm_, in.rows * in.stride);
                    for (uint32_t k = 0; k < in.rows; ++k)
                        combineInto(results, tile_.template Tensor<Src>()[k * in.stride], in.cols);
                    AscendC::PipeBarrier<PIPE_ALL>();
                }
                atvoss_detail::FlatIo<Dag> out;
                out.base = o * inner + i0;
                tile_.template Run<typename Parts::Post>(out, gm_, in.cols);
            }
    }

    ReduceOpTilingData t_;
    AscendC::TPipe* pipe_ = nullptr;
    AscendC::TBuf<AscendC::TPosition::VECCALC> accBuf_;
    AscendC::LocalTensor<T> acc_;
    atvoss_detail::DagIo<Dag> gm_;
    atvoss_detail::DagTile<Dag> tile_;
};

} // namespace ReduceOpTmpl
using ReduceOpTmpl::ReduceSch;
} // namespace Ops::Base
