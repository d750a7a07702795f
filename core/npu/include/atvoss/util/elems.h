// atvoss/util/elems.h: a compile-time list of types (the outputs of an operator DAG, the nodes
// the schedule found in it). Our own writing against the documented vector operator templates.
#pragma once

#include <cstddef>
#include <type_traits>

namespace Ops::Base {

template <class... Ts> struct Elems {
    static constexpr std::size_t Size = sizeof...(Ts);
};

namespace atvoss_detail {

// Whether T is one of the list's types.
template <class T, class List> struct ListHas;
template <class T, class... Ts> struct ListHas<T, Elems<Ts...>> {
    static constexpr bool value = (std::is_same_v<T, Ts> || ...);
};

// Append T to the list unless it is already there (the DAG's nodes are identified by type).
template <class List, class T> struct AppendUnique;
template <class T, class... Ts> struct AppendUnique<Elems<Ts...>, T> {
    using type = std::conditional_t<ListHas<T, Elems<Ts...>>::value, Elems<Ts...>, Elems<Ts..., T>>;
};

// Position of T in the list (Size when absent).
template <class T, class List> struct IndexIn;
template <class T> struct IndexIn<T, Elems<>> {
    static constexpr std::size_t value = 0;
};
template <class T, class H, class... Ts> struct IndexIn<T, Elems<H, Ts...>> {
    static constexpr std::size_t value = std::is_same_v<T, H> ? 0 : 1 + IndexIn<T, Elems<Ts...>>::value;
};

} // namespace atvoss_detail
} // namespace Ops::Base

namespace Ops::Base::atvoss_detail {
template <class List> struct FirstOf;
template <class H, class... Ts> struct FirstOf<Elems<H, Ts...>> {
    using type = H;
};
template <class List> struct LastOf;
template <class H> struct LastOf<Elems<H>> {
    using type = H;
};
template <class H, class N, class... Ts> struct LastOf<Elems<H, N, Ts...>> {
    using type = typename LastOf<Elems<N, Ts...>>::type;
};
} // namespace Ops::Base::atvoss_detail
