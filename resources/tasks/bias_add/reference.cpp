#include "sage_reference.h"

#include <algorithm>
#include <cmath>

SAGE_REFERENCE(ctx) {
    const int64_t M = ctx.dim("M"), N = ctx.dim("N");
    auto x = ctx.in("x");
    auto bias = ctx.in("bias");
    auto y = ctx.out("y");
    for (int64_t m = 0; m < M; ++m)
        for (int64_t n = 0; n < N; ++n) y[m * N + n] = x[m * N + n] + bias[n];
}
