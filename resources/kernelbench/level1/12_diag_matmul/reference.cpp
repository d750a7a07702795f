#include "sage_reference.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

SAGE_REFERENCE(ctx) {
    auto a = ctx.in("A");
    auto b = ctx.in("B");
    auto c = ctx.out("C");
    const int64_t N = ctx.dim("N"), M = ctx.dim("M");
    for (int64_t i = 0; i < N; ++i)
        for (int64_t j = 0; j < M; ++j) c[i * M + j] = a[i] * b[i * M + j];
}
