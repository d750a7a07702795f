#include "sage_reference.h"

#include <cmath>
#include <algorithm>

SAGE_REFERENCE(ctx) {
    auto x = ctx.in("x");
    const double lo = ctx.in("clip_value_min")[0], hi = ctx.in("clip_value_max")[0];
    auto y = ctx.out("y");
    for (size_t i = 0; i < y.size(); ++i) y[i] = std::min(std::max(x[i], lo), hi);
}
