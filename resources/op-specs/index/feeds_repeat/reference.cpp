#include "sage_reference.h"

#include <cmath>

SAGE_REFERENCE(ctx) {
    auto feeds = ctx.in("feeds");
    auto times = ctx.in("feeds_repeat_times");
    auto y = ctx.out("y");
    const int64_t rows = ctx.dim("R"), cols = ctx.dim("C");
    for (size_t i = 0; i < y.size(); ++i) y[i] = 0;
    size_t at = 0;
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t k = 0; k < int64_t(times[size_t(r)]); ++k, ++at)
            for (int64_t c = 0; c < cols; ++c) y[at * size_t(cols) + size_t(c)] = feeds[size_t(r * cols + c)];
}
