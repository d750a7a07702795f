#include "sage_reference.h"

#include <algorithm>

SAGE_REFERENCE(ctx) {
    auto x = ctx.in("x");
    auto y = ctx.in("y");
    auto z = ctx.out("z");
    const double beta = ctx.attr("beta");
    for (size_t i = 0; i < z.size(); ++i) z[i] = std::fabs(x[i] - y[i]) < beta ? 0.5 * (x[i] - y[i]) * (x[i] - y[i]) / beta : std::fabs(x[i] - y[i]) - 0.5 * beta;
}
