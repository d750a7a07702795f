#include "sage_reference.h"

SAGE_REFERENCE(ctx) {
    auto x = ctx.in("x");
    auto z = ctx.out("z");
    const double factor = ctx.attr("scale") * ctx.attr("sign");
    for (size_t i = 0; i < z.size(); ++i) z[i] = x[i] * factor;
}
