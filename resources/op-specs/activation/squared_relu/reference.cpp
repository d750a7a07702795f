#include "sage_reference.h"

SAGE_REFERENCE(ctx) {
    auto x = ctx.in("input");
    auto y = ctx.out("output");
    for (size_t i = 0; i < y.size(); ++i) y[i] = x[i] > 0 ? x[i] * x[i] : 0.0;
}
