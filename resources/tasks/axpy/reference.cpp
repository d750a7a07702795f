#include "sage_reference.h"

#include <algorithm>

SAGE_REFERENCE(ctx) {
    auto x = ctx.in("x");
    auto y = ctx.in("y");
    auto z = ctx.out("z");
    const double alpha = ctx.attr("alpha");
    for (size_t i = 0; i < z.size(); ++i) z[i] = alpha * x[i] + y[i];
}
