#include "sage_reference.h"

#include <cmath>

SAGE_REFERENCE(ctx) {
    auto a = ctx.in("input_data");
    auto x1 = ctx.in("x1");
    auto x2 = ctx.in("x2");
    const double v = ctx.in("value")[0];
    auto y = ctx.out("y");
    for (size_t i = 0; i < y.size(); ++i) y[i] = a[i] + v * (x1[i] / x2[i]);
}
