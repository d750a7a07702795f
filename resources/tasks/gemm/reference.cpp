#include "sage_reference.h"

#include <vector>

SAGE_REFERENCE(ctx) {
    const int64_t M = ctx.dim("M"), K = ctx.dim("K"), N = ctx.dim("N");
    auto a = ctx.in("a");
    auto b = ctx.in("b");
    auto c = ctx.out("c");
    std::vector<double> row(static_cast<size_t>(N));
    for (int64_t m = 0; m < M; ++m) {
        std::fill(row.begin(), row.end(), 0.0);
        for (int64_t k = 0; k < K; ++k) {
            const double av = a[m * K + k];
            const double* bk = &b[k * N];
            for (int64_t n = 0; n < N; ++n) row[n] += av * bk[n];
        }
        for (int64_t n = 0; n < N; ++n) c[m * N + n] = row[n];
    }
}
