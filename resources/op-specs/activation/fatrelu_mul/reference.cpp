#include "sage_reference.h"

// FatreluMul: the last axis holds a and g halves; output = (a > threshold ? a : 0) * g.
SAGE_REFERENCE(ctx) {
    auto x = ctx.in("input");
    auto t = ctx.in("threshold");
    auto y = ctx.out("output");
    const size_t D = size_t(ctx.dim("D")), B = size_t(ctx.dim("B"));
    for (size_t b = 0; b < B; ++b)
        for (size_t i = 0; i < D; ++i) {
            const double a = x[b * 2 * D + i], g = x[b * 2 * D + D + i];
            y[b * D + i] = (a > t[0] ? a : 0.0) * g;
        }
}
