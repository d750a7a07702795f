#include "sage_reference.h"

#include <cmath>

SAGE_REFERENCE(ctx) {
    auto x = ctx.in("x");
    const double v = ctx.in("value")[0];
    auto y = ctx.out("y");
    for (size_t i = 0; i < y.size(); ++i) y[i] = x[i] * v;
}
