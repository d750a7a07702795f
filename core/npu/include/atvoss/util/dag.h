// atvoss/util/dag.h: an operator's compute as a DAG of bound operations. Bind<Op, Args...> applies
// the vector operation Op (from atvoss/util/vec.h or the op's own struct deriving from
// Vec::ElemwiseUnaryOP and kin) to Args (placeholders or other Binds); DAGSch<Elems<outputs...>>
// names the outputs, each a Bind of Vec::CopyOut to a Placeholder::OutN. The schedules
// (elewise, broadcast, reduce) walk the DAG at compile time: DagInfo lists its nodes in
// evaluation order and checks that it is well formed.
#pragma once

#include "atvoss/util/elems.h"
#include "atvoss/util/placeholder.h"
#include "atvoss/util/vec.h"
#include "op_kernel/math_util.h"      // Ops::Base::CeilDiv and kin, which op DAG headers use
#include "op_kernel/platform_util.h"  // Ops::Base::GetVRegSize, GetUbBlockSize

namespace Ops::Base {

template <class Op, class... Args> struct Bind {
    using Fun = Op;
    using ArgList = Elems<Args...>;
    using DType = typename Op::DstType;
};

// How aggressively the schedule may reuse buffers; accepted for source compatibility (this
// implementation gives every node its own buffer, so every level behaves as the safest one).
enum class MemLevel { LEVEL_0 = 0, LEVEL_1 = 1, LEVEL_2 = 2 };
template <MemLevel level = MemLevel::LEVEL_2, bool... flags> struct MemOptCfg {
    static constexpr MemLevel memLevel = level;
};

namespace atvoss_detail {

template <class T> struct IsBind : std::false_type {};
template <class Op, class... A> struct IsBind<Bind<Op, A...>> : std::true_type {};

template <class T> constexpr bool isLeafOf(Placeholder::LeafKind k) {
    if constexpr (requires { T::kind; }) return T::kind == k;
    else return false;
}

// Nodes of the sub-DAG rooted at N, appended to List in post-order (arguments first).
template <class N, class List> struct Collect {
    using type = List;  // a leaf: no node
};
template <class List, class... Args> struct CollectArgs;
template <class List> struct CollectArgs<List> {
    using type = List;
};
template <class List, class A, class... Rest> struct CollectArgs<List, A, Rest...> {
    using type = typename CollectArgs<typename Collect<A, List>::type, Rest...>::type;
};
template <class Op, class... A, class List> struct Collect<Bind<Op, A...>, List> {
    using type = typename AppendUnique<typename CollectArgs<List, A...>::type, Bind<Op, A...>>::type;
};

template <class Outputs> struct CollectAll;
template <class... O> struct CollectAll<Elems<O...>> {
    using type = typename CollectArgs<Elems<>, O...>::type;
};

// Largest index + 1 of the leaves of kind K among every node's arguments.
template <Placeholder::LeafKind K, class A> constexpr int leafCount() {
    if constexpr (isLeafOf<A>(K)) return A::index + 1;
    else return 0;
}
template <Placeholder::LeafKind K, class Node> struct NodeLeafCount;
template <Placeholder::LeafKind K, class Op, class... A> struct NodeLeafCount<K, Bind<Op, A...>> {
    static constexpr int value = [] {
        int m = 0;
        ((m = leafCount<K, A>() > m ? leafCount<K, A>() : m), ...);
        return m;
    }();
};
template <Placeholder::LeafKind K, class Nodes> struct LeafCount;
template <Placeholder::LeafKind K, class... N> struct LeafCount<K, Elems<N...>> {
    static constexpr int value = [] {
        int m = 0;
        ((m = NodeLeafCount<K, N>::value > m ? NodeLeafCount<K, N>::value : m), ...);
        return m;
    }();
};

template <class Node> constexpr bool isCopyOutNode() {
    if constexpr (IsBind<Node>::value) return Node::Fun::role == Vec::OpRole::CopyOut;
    else return false;
}

// Bitmask of the output indices the DAG's outputs write (to find one written twice or never).
template <class Node> constexpr unsigned outMaskOf() {
    if constexpr (isCopyOutNode<Node>()) {
        using Leaf = typename FirstOf<typename Node::ArgList>::type;
        return 1u << Leaf::index;
    } else {
        return 0u;
    }
}

} // namespace atvoss_detail

// The DAG of one operator. Outputs is Elems<...> of CopyOut binds; the other parameters
// (scheduling hints) are accepted and ignored.
template <class Outputs, class Extra = void, class MemCfg = MemOptCfg<>, class... Hints> struct DAGSch {
    using OutList = Outputs;
    using Nodes = typename atvoss_detail::CollectAll<Outputs>::type;
    static constexpr int kInputs = atvoss_detail::LeafCount<Placeholder::LeafKind::Input, Nodes>::value;
    static constexpr int kOutputs = atvoss_detail::LeafCount<Placeholder::LeafKind::Output, Nodes>::value;
    static constexpr int kVars = atvoss_detail::LeafCount<Placeholder::LeafKind::Var, Nodes>::value;
};

} // namespace Ops::Base
