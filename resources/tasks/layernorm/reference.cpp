#include "sage_reference.h"

#include <algorithm>
#include <cmath>

SAGE_REFERENCE(ctx) {
    const int64_t M = ctx.dim("M"), N = ctx.dim("N");
    auto x = ctx.in("x");
    auto gamma = ctx.in("gamma");
    auto beta = ctx.in("beta");
    auto y = ctx.out("y");
    const double eps = ctx.attr("eps");
    for (int64_t m = 0; m < M; ++m) {
        double mean = 0, var = 0;
        for (int64_t n = 0; n < N; ++n) mean += x[m * N + n];
        mean /= double(N);
        for (int64_t n = 0; n < N; ++n) var += (x[m * N + n] - mean) * (x[m * N + n] - mean);
        var /= double(N);
        const double rstd = 1.0 / std::sqrt(var + eps);
        for (int64_t n = 0; n < N; ++n) y[m * N + n] = (x[m * N + n] - mean) * rstd * gamma[n] + beta[n];
    }
}
