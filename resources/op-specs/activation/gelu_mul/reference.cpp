#include "sage_reference.h"
#include <cmath>

// GeluMul: the last axis holds a and g halves; output = gelu(a) * g (approximate "none": the erf form).
SAGE_REFERENCE(ctx) {
    auto x = ctx.in("input");
    auto y = ctx.out("output");
    const size_t D = size_t(ctx.dim("D")), B = size_t(ctx.dim("B"));
    for (size_t b = 0; b < B; ++b)
        for (size_t i = 0; i < D; ++i) {
            const double a = x[b * 2 * D + i], g = x[b * 2 * D + D + i];
            y[b * D + i] = 0.5 * a * (1.0 + std::erf(a / std::sqrt(2.0))) * g;
        }
}
