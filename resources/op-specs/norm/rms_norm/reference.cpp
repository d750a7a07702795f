// RmsNorm, computed in double: each row of x scaled by the reciprocal root of its mean square
// (plus epsilon), then by gamma element-wise.
#include "sage_reference.h"

#include <cmath>

SAGE_REFERENCE(ctx) {
    auto x = ctx.in("x");
    auto gamma = ctx.in("gamma");
    auto y = ctx.out("y");
    auto rstd = ctx.out("rstd");
    const double eps = ctx.attr("epsilon");
    const int64_t rows = ctx.dim("R"), cols = ctx.dim("D");
    for (int64_t r = 0; r < rows; ++r) {
        double squares = 0;
        for (int64_t c = 0; c < cols; ++c) squares += double(x[size_t(r * cols + c)]) * x[size_t(r * cols + c)];
        const double scale = 1.0 / std::sqrt(squares / double(cols) + eps);
        rstd[size_t(r)] = scale;
        for (int64_t c = 0; c < cols; ++c) y[size_t(r * cols + c)] = x[size_t(r * cols + c)] * scale * gamma[size_t(c)];
    }
}
