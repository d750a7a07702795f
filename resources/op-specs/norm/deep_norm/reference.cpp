#include "sage_reference.h"

#include <cmath>

SAGE_REFERENCE(ctx) {
    auto x = ctx.in("x");
    auto gx = ctx.in("gx");
    auto beta = ctx.in("beta");
    auto gamma = ctx.in("gamma");
    auto mean = ctx.out("mean");
    auto rstd = ctx.out("rstd");
    auto y = ctx.out("y");
    const double alpha = ctx.attr("alpha"), eps = ctx.attr("epsilon");
    const int64_t rows = ctx.dim("R"), cols = ctx.dim("C");
    for (int64_t r = 0; r < rows; ++r) {
        double sum = 0, sq = 0;
        for (int64_t c = 0; c < cols; ++c) sum += alpha * x[size_t(r * cols + c)] + gx[size_t(r * cols + c)];
        const double m = sum / double(cols);
        for (int64_t c = 0; c < cols; ++c) {
            const double d = alpha * x[size_t(r * cols + c)] + gx[size_t(r * cols + c)] - m;
            sq += d * d;
        }
        const double rs = 1.0 / std::sqrt(sq / double(cols) + eps);
        mean[size_t(r)] = m;
        rstd[size_t(r)] = rs;
        for (int64_t c = 0; c < cols; ++c) {
            const double z = alpha * x[size_t(r * cols + c)] + gx[size_t(r * cols + c)];
            y[size_t(r * cols + c)] = (z - m) * rs * gamma[size_t(c)] + beta[size_t(c)];
        }
    }
}
