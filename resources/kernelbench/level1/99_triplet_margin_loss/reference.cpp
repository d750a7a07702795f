#include "sage_reference.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

SAGE_REFERENCE(ctx) {
    auto a = ctx.in("anchor");
    auto p = ctx.in("positive");
    auto n = ctx.in("negative");
    auto y = ctx.out("y");
    const int64_t rows = ctx.dim("B"), cols = ctx.dim("D");
    const double margin = ctx.attr("margin"), eps = 1e-6;  // PyTorch's pairwise_distance eps
    double total = 0;
    for (int64_t r = 0; r < rows; ++r) {
        double dp = 0, dn = 0;
        for (int64_t c = 0; c < cols; ++c) {
            const double u = a[r * cols + c] - p[r * cols + c] + eps, v = a[r * cols + c] - n[r * cols + c] + eps;
            dp += u * u;
            dn += v * v;
        }
        total += std::max(0.0, std::sqrt(dp) - std::sqrt(dn) + margin);
    }
    y[0] = total / double(rows);
}
