#include "sage_reference.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

SAGE_REFERENCE(ctx) {
    auto A = ctx.in("A");
    auto Bm = ctx.in("B");
    auto C = ctx.out("C");
    const int64_t batch = 1, M = ctx.dim("M"), K = ctx.dim("K"), N = ctx.dim("N");
    std::vector<double> row(static_cast<size_t>(N));
    for (int64_t b = 0; b < batch; ++b)
        for (int64_t i = 0; i < M; ++i) {
            std::fill(row.begin(), row.end(), 0.0);
            for (int64_t k = 0; k < K; ++k) {
                const double a = A[i * K + k];
                if (a == 0.0) continue;
                for (int64_t j = 0; j < N; ++j) row[size_t(j)] += a * (Bm[k * N + j]);
            }
            for (int64_t j = 0; j < N; ++j) C[(b * M + i) * N + j] = row[size_t(j)];
        }
}
