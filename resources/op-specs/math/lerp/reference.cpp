#include "sage_reference.h"

#include <cmath>

SAGE_REFERENCE(ctx) {
    auto s = ctx.in("start");
    auto e = ctx.in("end");
    auto w = ctx.in("weight");
    auto y = ctx.out("y");
    for (size_t i = 0; i < y.size(); ++i) y[i] = s[i] + w[i] * (e[i] - s[i]);
}
