#include "sage_reference.h"

SAGE_REFERENCE(ctx) {
    auto x = ctx.in("x");
    auto y = ctx.in("y");
    auto z = ctx.out("z");
    const double alpha = ctx.attr("alpha");
    for (size_t i = 0; i < z.size(); ++i) z[i] = x[i] + alpha * y[i];
}
