#include "sage_reference.h"

#include <cmath>

SAGE_REFERENCE(ctx) {
    auto x = ctx.in("x");
    auto gamma = ctx.in("gamma");
    auto beta = ctx.in("beta");
    auto y = ctx.out("y");
    auto mean = ctx.out("mean");
    auto var = ctx.out("variance");
    const size_t channels = size_t(ctx.dim("C")), plane = size_t(ctx.dim("H") * ctx.dim("W"));
    const double eps = ctx.attr("epsilon");
    for (size_t k = 0; k < mean.size(); ++k) {
        double sum = 0, sq = 0;
        for (size_t i = 0; i < plane; ++i) sum += x[k * plane + i];
        const double m = sum / double(plane);
        for (size_t i = 0; i < plane; ++i) sq += (x[k * plane + i] - m) * (x[k * plane + i] - m);
        const double v = sq / double(plane);
        mean[k] = m;
        var[k] = v;
        const size_t c = k % channels;
        for (size_t i = 0; i < plane; ++i) y[k * plane + i] = (x[k * plane + i] - m) / std::sqrt(v + eps) * gamma[c] + beta[c];
    }
}
