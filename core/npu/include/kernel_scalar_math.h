// Scalar C math as kernels call it unqualified (`sqrt(x)`, `expf(x)`), as the device compiler
// provides it, without declaring the C library's names in the global namespace: a kernel entry may
// itself be named like one (`extern "C" ... void sin(...)`, an op called sin), and a global libm
// declaration would clash with it. The functions live in a namespace that a using-directive makes
// visible, which declares nothing globally. They are templates, so that where a kernel includes
// <cmath> or <math.h> itself the library's own functions win overload resolution instead of
// making the call ambiguous. They compute in IEEE arithmetic on the scalar unit.
#pragma once

namespace sage_scalar_math {

#define SAGE_SCALAR_MATH_1(name, type) \
    template <int = 0> inline type name(type x) { return __builtin_##name(x); }
#define SAGE_SCALAR_MATH_2(name, type) \
    template <int = 0> inline type name(type x, type y) { return __builtin_##name(x, y); }

// C's double functions and their float (`f`) spellings.
#define SAGE_SCALAR_MATH_BOTH_1(name) SAGE_SCALAR_MATH_1(name, double) SAGE_SCALAR_MATH_1(name##f, float)
#define SAGE_SCALAR_MATH_BOTH_2(name) SAGE_SCALAR_MATH_2(name, double) SAGE_SCALAR_MATH_2(name##f, float)

SAGE_SCALAR_MATH_BOTH_1(sqrt)
SAGE_SCALAR_MATH_BOTH_1(exp)
SAGE_SCALAR_MATH_BOTH_1(exp2)
SAGE_SCALAR_MATH_BOTH_1(expm1)
SAGE_SCALAR_MATH_BOTH_1(log)
SAGE_SCALAR_MATH_BOTH_1(log2)
SAGE_SCALAR_MATH_BOTH_1(log10)
SAGE_SCALAR_MATH_BOTH_1(log1p)
SAGE_SCALAR_MATH_BOTH_1(fabs)
SAGE_SCALAR_MATH_BOTH_1(floor)
SAGE_SCALAR_MATH_BOTH_1(ceil)
SAGE_SCALAR_MATH_BOTH_1(round)
SAGE_SCALAR_MATH_BOTH_1(trunc)
SAGE_SCALAR_MATH_BOTH_1(sin)
SAGE_SCALAR_MATH_BOTH_1(cos)
SAGE_SCALAR_MATH_BOTH_1(tan)
SAGE_SCALAR_MATH_BOTH_1(asin)
SAGE_SCALAR_MATH_BOTH_1(acos)
SAGE_SCALAR_MATH_BOTH_1(atan)
SAGE_SCALAR_MATH_BOTH_1(sinh)
SAGE_SCALAR_MATH_BOTH_1(cosh)
SAGE_SCALAR_MATH_BOTH_1(tanh)
SAGE_SCALAR_MATH_BOTH_1(erf)
SAGE_SCALAR_MATH_BOTH_1(erfc)
SAGE_SCALAR_MATH_BOTH_2(pow)
SAGE_SCALAR_MATH_BOTH_2(fmax)
SAGE_SCALAR_MATH_BOTH_2(fmin)
SAGE_SCALAR_MATH_BOTH_2(fmod)
SAGE_SCALAR_MATH_BOTH_2(atan2)

#undef SAGE_SCALAR_MATH_BOTH_2
#undef SAGE_SCALAR_MATH_BOTH_1
#undef SAGE_SCALAR_MATH_2
#undef SAGE_SCALAR_MATH_1

} // namespace sage_scalar_math

using namespace sage_scalar_math;
