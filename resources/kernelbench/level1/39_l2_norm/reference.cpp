#include "sage_reference.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

SAGE_REFERENCE(ctx) {
    auto x = ctx.in("x");
    auto y = ctx.out("y");
    const auto shape = ctx.shape("x");
    const int64_t cols = shape.back();
    const int64_t rows = int64_t(x.size()) / cols;
    for (int64_t r = 0; r < rows; ++r) {
        const double* row = x.data() + r * cols;
        double mx = row[0], sum = 0, sumAbs = 0, sumSq = 0;
        for (int64_t c = 0; c < cols; ++c) mx = std::max(mx, row[c]);
        for (int64_t c = 0; c < cols; ++c) {
            sum += std::exp(row[c] - mx);
            sumAbs += std::abs(row[c]);
            sumSq += row[c] * row[c];
        }
        for (int64_t c = 0; c < cols; ++c) y[r * cols + c] = row[c] / std::sqrt(sumSq);
    }
}
