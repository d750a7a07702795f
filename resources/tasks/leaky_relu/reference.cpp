#include "sage_reference.h"

#include <algorithm>

SAGE_REFERENCE(ctx) {
    auto x = ctx.in("x");
    auto z = ctx.out("z");
    const double negative_slope = ctx.attr("negative_slope");
    for (size_t i = 0; i < z.size(); ++i) z[i] = x[i] >= 0 ? x[i] : negative_slope * x[i];
}
