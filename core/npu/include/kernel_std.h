// AscendC::Std: the device library's subset of the C++ standard library that kernels spell
// `AscendC::Std::...` (type traits, min/max, integer sequences, tuple). On the simulator the
// kernel is ordinary C++, so each name is the standard one. Semantics: docs/kernel-api.md.
#pragma once

#include <algorithm>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

namespace AscendC::Std {

using std::min;
using std::max;

using std::integral_constant;
using std::bool_constant;
using std::true_type;
using std::false_type;

using std::is_same;
using std::is_same_v;
using std::is_void;
using std::is_void_v;
using std::is_integral;
using std::is_integral_v;
using std::is_floating_point;
using std::is_floating_point_v;
using std::is_arithmetic;
using std::is_arithmetic_v;
using std::is_signed;
using std::is_signed_v;
using std::is_unsigned;
using std::is_unsigned_v;
using std::is_pointer;
using std::is_pointer_v;
using std::is_reference;
using std::is_reference_v;
using std::is_lvalue_reference;
using std::is_rvalue_reference;
using std::is_const;
using std::is_const_v;
using std::is_array;
using std::is_array_v;
using std::is_enum;
using std::is_enum_v;
using std::is_class;
using std::is_class_v;
using std::is_base_of;
using std::is_base_of_v;
using std::is_convertible;
using std::is_convertible_v;

using std::remove_pointer;
using std::remove_pointer_t;
using std::remove_reference;
using std::remove_reference_t;
using std::remove_cv;
using std::remove_cv_t;
using std::remove_const;
using std::remove_const_t;
using std::remove_cvref;
using std::remove_cvref_t;
using std::add_pointer;
using std::add_pointer_t;
using std::decay;
using std::decay_t;
using std::conditional;
using std::conditional_t;
using std::enable_if;
using std::enable_if_t;

using std::integer_sequence;
using std::index_sequence;
using std::make_index_sequence;
using std::make_integer_sequence;
using std::tuple;
using std::make_tuple;
using std::get;
using std::tuple_size;
using std::tuple_element;

} // namespace AscendC::Std

namespace AscendC {
// Conditional<cond, A, B>::type: A when cond holds, else B (the device headers' own spelling of
// std::conditional).
template <bool cond, typename A, typename B> struct Conditional {
    using type = std::conditional_t<cond, A, B>;
};
} // namespace AscendC
