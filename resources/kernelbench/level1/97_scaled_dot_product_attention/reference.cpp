#include "sage_reference.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

SAGE_REFERENCE(ctx) {
    auto q = ctx.in("Q");
    auto k = ctx.in("K");
    auto v = ctx.in("V");
    auto out = ctx.out("O");
    const int64_t BH = ctx.dim("B") * ctx.dim("H"), S = ctx.dim("S"), D = ctx.dim("D");
    const double scale = 1.0 / std::sqrt(double(D));
    std::vector<double> w(static_cast<size_t>(S));
    for (int64_t h = 0; h < BH; ++h)
        for (int64_t i = 0; i < S; ++i) {
            const double* qi = q.data() + (h * S + i) * D;
            double mx = -INFINITY;
            for (int64_t j = 0; j < S; ++j) {
                const double* kj = k.data() + (h * S + j) * D;
                double dot = 0;
                for (int64_t d = 0; d < D; ++d) dot += qi[d] * kj[d];
                w[size_t(j)] = dot * scale;
                mx = std::max(mx, w[size_t(j)]);
            }
            double s = 0;
            for (int64_t j = 0; j < S; ++j) s += (w[size_t(j)] = std::exp(w[size_t(j)] - mx));
            for (int64_t d = 0; d < D; ++d) {
                double acc = 0;
                for (int64_t j = 0; j < S; ++j) acc += w[size_t(j)] * v[(h * S + j) * D + d];
                out[(h * S + i) * D + d] = acc / s;
            }
        }
}
