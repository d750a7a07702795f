#include "sage_reference.h"

#include <cmath>

SAGE_REFERENCE(ctx) {
    auto x1 = ctx.in("x1");
    auto x2 = ctx.in("x2");
    auto y = ctx.out("y");
    for (size_t i = 0; i < y.size(); ++i) {
        const double p = x1[i], q = x2[i];
        y[i] = p == 0 ? 0.0 : p * std::log(q);
    }
}
