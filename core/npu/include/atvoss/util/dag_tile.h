// atvoss/util/dag_tile.h: runs an operator DAG on one UB tile. DagTile gives every node of the DAG
// its own slice of one TBuf, then per tile: the schedule's loader fills the CopyIn/CopyInBrc
// nodes (MTE2), the compute nodes run in DAG order (PIPE_V, or the scalar unit for types the
// vector instructions lack), and the loader's storer writes the CopyOut nodes (MTE3), with a
// barrier between the stages so the simulator's race checks see ordered pipes. Shared by the
// elementwise, broadcast and reduce schedules.
#pragma once

#include "atvoss/util/dag.h"

#include <tuple>
#include <utility>

namespace Ops::Base::atvoss_detail {

template <class Node> constexpr Vec::OpRole roleOf() { return Node::Fun::role; }

// Bytes one element of the tile takes over every node that holds a UB buffer (all but CopyOut).
template <class Nodes> struct TileBytes;
template <class... N> struct TileBytes<Elems<N...>> {
    static constexpr uint32_t value = ((roleOf<N>() == Vec::OpRole::CopyOut ? 0u : uint32_t(sizeof(typename N::DType))) + ... + 0u);
};

template <class List> struct AsTuple;
template <class... N> struct AsTuple<Elems<N...>> {
    using type = std::tuple<N...>;
};
template <size_t I, class List> using NodeAt = std::tuple_element_t<I, typename AsTuple<List>::type>;

// Whether an operation of the DAG borrows the schedule's scratch (Compare, Select).
template <class Node> constexpr bool needsScratch() {
    if constexpr (requires { Node::Fun::kNeedsScratch; }) return Node::Fun::kNeedsScratch;
    else return false;
}
template <class Nodes> struct AnyNeedsScratch;
template <class... N> struct AnyNeedsScratch<Elems<N...>> {
    static constexpr bool value = (needsScratch<N>() || ... || false);
};

template <class Nodes> struct TensorsOf;
template <class... N> struct TensorsOf<Elems<N...>> {
    using type = std::tuple<AscendC::LocalTensor<typename N::DType>...>;
};

template <class Dag> struct DagChecks {
    using Nodes = typename Dag::Nodes;
    template <class... O> static constexpr bool allCopyOut(Elems<O...>) { return (isCopyOutNode<O>() && ...); }
    template <class... O> static constexpr unsigned outMask(Elems<O...>) { return (outMaskOf<O>() | ... | 0u); }
    template <class... O> static constexpr unsigned outSum(Elems<O...>) { return (outMaskOf<O>() + ... + 0u); }
    static_assert(Dag::OutList::Size > 0, "atvoss: the DAG has no outputs: list its CopyOut binds in DAGSch<Elems<...>>");
    static_assert(allCopyOut(typename Dag::OutList{}),
                  "atvoss: every output of DAGSch<Elems<...>> must be a Bind<Vec::CopyOut<T>, Placeholder::OutN<T>, X>; "
                  "a computed value listed as an output is never written to GM");
    static_assert(outMask(typename Dag::OutList{}) == (1u << Dag::kOutputs) - 1u &&
                      outSum(typename Dag::OutList{}) == outMask(typename Dag::OutList{}),
                  "atvoss: the DAG's outputs must bind Placeholder::Out0, Out1, ... each exactly once");
    static constexpr bool ok = true;
};

// The GM address of input/output k and the values of the DAG's scalars.
template <class Dag> struct DagIo {
    GM_ADDR in[Dag::kInputs > 0 ? Dag::kInputs : 1] = {};
    GM_ADDR out[Dag::kOutputs > 0 ? Dag::kOutputs : 1] = {};
    double vars[Dag::kVars > 0 ? Dag::kVars : 1] = {};
    bool varSet[Dag::kVars > 0 ? Dag::kVars : 1] = {};

    template <class... A> __aicore__ inline void bind(A... addrs) {
        static_assert(sizeof...(A) == Dag::kInputs + Dag::kOutputs,
                      "atvoss: the schedule takes the DAG's GM inputs then outputs (Placeholder::In0.. then Out0..): "
                      "the number of GM addresses passed does not match the DAG");
        GM_ADDR all[] = {reinterpret_cast<GM_ADDR>(addrs)...};
        for (int i = 0; i < Dag::kInputs; ++i) in[i] = all[i];
        for (int i = 0; i < Dag::kOutputs; ++i) out[i] = all[Dag::kInputs + i];
    }
    template <class T, int N> __aicore__ inline void setVar(T v) {
        static_assert(N < (Dag::kVars > 0 ? Dag::kVars : 1), "atvoss: SetVar<T, N>: the DAG has no Placeholder::Var with this N");
        vars[N] = static_cast<double>(static_cast<float>(v));
        if constexpr (std::is_integral_v<T>) vars[N] = static_cast<double>(v);
        varSet[N] = true;
    }
};

struct KeepAll {
    template <class Node> static constexpr bool keep() { return true; }
};

template <class Dag> class DagTile {
public:
    using Nodes = typename Dag::Nodes;
    static constexpr bool kScratch = AnyNeedsScratch<Nodes>::value;
    // The nodes' slices plus, when an operation borrows scratch, its 4 bytes and a mask bit.
    static constexpr uint32_t kBytesPerElem = TileBytes<Nodes>::value + (kScratch ? 5u : 0u);
    static_assert(DagChecks<Dag>::ok);

    // Carves `elems` elements per node out of one TBuf of `pipe`.
    __aicore__ inline void Init(AscendC::TPipe* pipe, uint32_t elems) {
        elems_ = elems;
        const uint32_t nodeBytes = TileBytes<Nodes>::value * elems;
        pipe->InitBuffer(buf_, nodeBytes > 0 ? nodeBytes : 32);
        carve(std::make_index_sequence<Nodes::Size>{});
        if constexpr (kScratch) {
            pipe->InitBuffer(scratchBuf_, Vec::atvoss_scratch::bytesFor(elems));
            scratch_ = scratchBuf_.template Get<uint8_t>();
        }
    }
    __aicore__ inline uint32_t TileElems() const { return elems_; }

    template <class Node> __aicore__ inline auto& Tensor() {
        return std::get<IndexIn<Node, Nodes>::value>(tensors_);
    }

    // One tile: loads, compute over `count` elements, stores (io: the schedule's loader). Keep
    // selects the nodes to run (the reduce schedule runs the DAG in two parts).
    template <class Keep = KeepAll, class Io> __aicore__ inline void Run(Io& io, DagIo<Dag>& gm, uint32_t count) {
        runStage<Vec::OpRole::CopyIn, Keep>(io, gm, count, std::make_index_sequence<Nodes::Size>{});
        AscendC::PipeBarrier<PIPE_ALL>();
        lendScratch();
        runStage<Vec::OpRole::Compute, Keep>(io, gm, count, std::make_index_sequence<Nodes::Size>{});
        Vec::atvoss_scratch::current() = {};
        AscendC::PipeBarrier<PIPE_ALL>();
        runStage<Vec::OpRole::CopyOut, Keep>(io, gm, count, std::make_index_sequence<Nodes::Size>{});
        AscendC::PipeBarrier<PIPE_ALL>();
    }

    // The value of a scalar leaf (Var, constant, scalar input) as the type T.
    template <class Leaf> __aicore__ inline auto Scalar(DagIo<Dag>& gm) {
        using T = typename Leaf::DType;
        if constexpr (Leaf::kind == Placeholder::LeafKind::Const) {
            return Vec::sc::convert<T>(Leaf::value);
        } else if constexpr (Leaf::kind == Placeholder::LeafKind::Var) {
            return Vec::sc::convert<T>(gm.vars[Leaf::index]);
        } else {
            AscendC::GlobalTensor<T> g;
            g.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(gm.in[Leaf::index]), 1);
            return g.GetValue(0);
        }
    }

private:
    __aicore__ inline void lendScratch() {
        if constexpr (kScratch) Vec::atvoss_scratch::current() = {scratch_, Vec::atvoss_scratch::bytesFor(elems_)};
    }
    template <size_t... I> __aicore__ inline void carve(std::index_sequence<I...>) {
        uint32_t offset = 0;
        ((carveOne<I>(offset)), ...);
    }
    template <size_t I> __aicore__ inline void carveOne(uint32_t& offset) {
        using Node = NodeAt<I, Nodes>;
        using T = typename Node::DType;
        if constexpr (roleOf<Node>() != Vec::OpRole::CopyOut) {
            std::get<I>(tensors_) = buf_.template GetWithOffset<T>(elems_, offset);
            offset += elems_ * uint32_t(sizeof(T));
        }
    }

    template <Vec::OpRole R, class Keep, class Io, size_t... I>
    __aicore__ inline void runStage(Io& io, DagIo<Dag>& gm, uint32_t count, std::index_sequence<I...>) {
        (keptNode<R, Keep, I>(io, gm, count), ...);
    }
    template <Vec::OpRole R, class Keep, size_t I, class Io>
    __aicore__ inline void keptNode(Io& io, DagIo<Dag>& gm, uint32_t count) {
        if constexpr (Keep::template keep<NodeAt<I, Nodes>>()) stageNode<R, I>(io, gm, count);
    }
    template <Vec::OpRole R, size_t I, class Io>
    __aicore__ inline void stageNode(Io& io, DagIo<Dag>& gm, uint32_t count) {
        using Node = NodeAt<I, Nodes>;
        constexpr Vec::OpRole role = roleOf<Node>();
        using Leaf = typename FirstOf<typename Node::ArgList>::type;
        if constexpr (R == Vec::OpRole::CopyIn && (role == Vec::OpRole::CopyIn || role == Vec::OpRole::CopyInBrc)) {
            if constexpr (Leaf::isScalar)
                Vec::Duplicate<typename Node::DType>(Tensor<Node>(), Scalar<Leaf>(gm), count);
            else
                io.template Load<Leaf::index>(Tensor<Node>(), gm, count);
        } else if constexpr (R == Vec::OpRole::Compute && role == Vec::OpRole::Compute) {
            Apply<typename Node::Fun>(Tensor<Node>(), gm, count, typename Node::ArgList{});
            AscendC::PipeBarrier<PIPE_ALL>();  // the next node may run on the other unit (vector/scalar)
        } else if constexpr (R == Vec::OpRole::Compute && role == Vec::OpRole::Reduce) {
            using Src = typename FirstOf<typename Node::ArgList>::type;
            io.template Reduce<Node>(Tensor<Node>(), Tensor<Src>(), count);
        } else if constexpr (R == Vec::OpRole::CopyOut && role == Vec::OpRole::CopyOut) {
            using Src = typename LastOf<typename Node::ArgList>::type;
            static_assert(IsBind<Src>::value, "atvoss: Vec::CopyOut takes Placeholder::OutN and the node to write");
            io.template Store<Leaf::index>(Tensor<Src>(), gm, count);
        }
    }

    template <class A> __aicore__ inline decltype(auto) Arg(DagIo<Dag>& gm) {
        if constexpr (IsBind<A>::value) return (Tensor<A>());
        else return Scalar<A>(gm);
    }
    template <class Op, class Dst, class... A>
    __aicore__ inline void Apply(Dst& dst, DagIo<Dag>& gm, uint32_t count, Elems<A...>) {
        Op op(dst, Arg<A>(gm)..., count);
        (void)op;
    }

    AscendC::TBuf<AscendC::TPosition::VECCALC> buf_;
    AscendC::TBuf<AscendC::TPosition::VECCALC> scratchBuf_;
    AscendC::LocalTensor<uint8_t> scratch_;
    typename TensorsOf<Nodes>::type tensors_;
    uint32_t elems_ = 0;
};

} // namespace Ops::Base::atvoss_detail
