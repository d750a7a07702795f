// GroupNormSilu in double: statistics per (batch, group) over the group's channels and positions,
// the normalized value scaled and shifted per channel, then x * sigmoid(x) when activate_silu.
#include "sage_reference.h"

#include <cmath>

SAGE_REFERENCE(ctx) {
    auto x = ctx.in("x");
    auto gamma = ctx.in("gamma");
    auto beta = ctx.in("beta");
    auto y = ctx.out("y");
    auto mean = ctx.out("mean");
    auto rstd = ctx.out("rstd");
    const int64_t batches = ctx.dim("N"), channels = ctx.dim("C"), positions = ctx.dim("L"), groups = ctx.dim("G");
    const double eps = ctx.attr("eps");
    const bool silu = ctx.attr("activate_silu") != 0;
    const int64_t perGroup = channels / groups;
    for (int64_t n = 0; n < batches; ++n)
        for (int64_t g = 0; g < groups; ++g) {
            const int64_t first = (n * channels + g * perGroup) * positions, count = perGroup * positions;
            double sum = 0, squares = 0;
            for (int64_t i = 0; i < count; ++i) sum += x[size_t(first + i)];
            const double m = sum / double(count);
            for (int64_t i = 0; i < count; ++i) squares += (x[size_t(first + i)] - m) * (x[size_t(first + i)] - m);
            const double r = 1.0 / std::sqrt(squares / double(count) + eps);
            mean[size_t(n * groups + g)] = m;
            rstd[size_t(n * groups + g)] = r;
            for (int64_t i = 0; i < count; ++i) {
                const int64_t c = g * perGroup + i / positions;
                double v = (x[size_t(first + i)] - m) * r * gamma[size_t(c)] + beta[size_t(c)];
                if (silu) v = v / (1.0 + std::exp(-v));
                y[size_t(first + i)] = v;
            }
        }
}
