#include "sage_reference.h"

#include <cmath>

SAGE_REFERENCE(ctx) {
    auto x = ctx.in("x");
    auto y = ctx.out("y");
    const int64_t rows = ctx.dim("R"), cols = ctx.dim("C"), d = int64_t(ctx.attr("diagonal"));
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c) y[size_t(r * cols + c)] = c <= r + d ? x[size_t(r * cols + c)] : 0.0;
}
