#include "sage_reference.h"
SAGE_REFERENCE(ctx) {
    auto x = ctx.in("x");
    auto y = ctx.out("y");
    double slope = ctx.attr("slope");
    for (size_t i = 0; i < y.size(); ++i) y[i] = x[i] >= 0 ? x[i] : slope * x[i];
}
