#include "sage_reference.h"

#include <algorithm>
#include <cmath>

SAGE_REFERENCE(ctx) {
    const int64_t M = ctx.dim("M"), N = ctx.dim("N");
    auto x = ctx.in("x");
    auto gamma = ctx.in("gamma");
    auto y = ctx.out("y");
    const double eps = ctx.attr("eps");
    for (int64_t m = 0; m < M; ++m) {
        double ss = 0;
        for (int64_t n = 0; n < N; ++n) ss += x[m * N + n] * x[m * N + n];
        const double rstd = 1.0 / std::sqrt(ss / double(N) + eps);
        for (int64_t n = 0; n < N; ++n) y[m * N + n] = x[m * N + n] * rstd * gamma[n];
    }
}
