#include "sage_reference.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

SAGE_REFERENCE(ctx) {
    auto x = ctx.in("predictions");
    auto t = ctx.in("targets");
    auto y = ctx.out("y");
    const int64_t rows = ctx.dim("B"), cols = ctx.dim("C");
    double total = 0;
    for (int64_t r = 0; r < rows; ++r) {
        const double* row = x.data() + r * cols;
        double mx = row[0], s = 0;
        for (int64_t c = 1; c < cols; ++c) mx = std::max(mx, row[c]);
        for (int64_t c = 0; c < cols; ++c) s += std::exp(row[c] - mx);
        total += mx + std::log(s) - row[int64_t(t[r])];
    }
    y[0] = total / double(rows);
}
