#include "sage_reference.h"

#include <cmath>

SAGE_REFERENCE(ctx) {
    auto x = ctx.in("x");
    auto y = ctx.out("y");
    const int64_t rows = ctx.dim("R"), half = ctx.dim("C");
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < half; ++c) {
            const double a = x[size_t(r * 2 * half + c)], b = x[size_t(r * 2 * half + half + c)];
            y[size_t(r * half + c)] = a / (1.0 + std::exp(-a)) * b;
        }
}
