#include "sage_reference.h"

#include <cmath>

SAGE_REFERENCE(ctx) {
    auto x = ctx.in("x");
    auto y = ctx.in("y");
    auto z = ctx.out("z");
    for (size_t i = 0; i < z.size(); ++i) {
        const double p = x[i], q = y[i];
        z[i] = p - q;
    }
}
