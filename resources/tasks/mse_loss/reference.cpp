#include "sage_reference.h"

SAGE_REFERENCE(ctx) {
    auto x = ctx.in("x");
    auto y = ctx.in("y");
    auto z = ctx.out("z");
    double s = 0;
    for (size_t i = 0; i < x.size(); ++i) s += (x[i] - y[i]) * (x[i] - y[i]);
    z[0] = s / double(x.size());
}
