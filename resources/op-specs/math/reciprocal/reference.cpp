#include "sage_reference.h"

#include <cmath>

SAGE_REFERENCE(ctx) {
    auto x = ctx.in("x");
    auto y = ctx.out("y");
    for (size_t i = 0; i < y.size(); ++i) {
        const double v = x[i];
        y[i] = 1.0 / v;
    }
}
