#include "sage_reference.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

SAGE_REFERENCE(ctx) {
    auto x = ctx.in("x");
    auto y = ctx.out("y");
    const int64_t B = ctx.dim("B"), R = ctx.dim("R"), C = ctx.dim("C");
    for (int64_t b = 0; b < B; ++b)
        for (int64_t c = 0; c < C; ++c) {
            double acc = x[(b * R) * C + c];
            int64_t at = 0;
            for (int64_t r = 0; r < R; ++r) {
                const double v = x[(b * R + r) * C + c];
                if (v < acc) acc = v;
            }
            (void)at;
            y[b * C + c] = acc;
        }
}
