# The remaining KernelBench level-1 references: losses, attention, odd matrix products.
from refs import wrap

MSE = wrap('''    auto p = ctx.in("predictions");
    auto t = ctx.in("targets");
    auto y = ctx.out("y");
    double s = 0;
    for (size_t i = 0; i < p.size(); ++i) s += (p[i] - t[i]) * (p[i] - t[i]);
    y[0] = s / double(p.size());
''')

HUBER = wrap('''    auto p = ctx.in("predictions");
    auto t = ctx.in("targets");
    auto y = ctx.out("y");
    double s = 0;
    for (size_t i = 0; i < p.size(); ++i) {
        const double d = std::abs(p[i] - t[i]);
        s += d < 1.0 ? 0.5 * d * d : d - 0.5;
    }
    y[0] = s / double(p.size());
''')

HINGE = wrap('''    auto p = ctx.in("predictions");
    auto t = ctx.in("targets");
    auto y = ctx.out("y");
    const int64_t cols = int64_t(t.size());
    double s = 0;
    for (size_t i = 0; i < p.size(); ++i) s += std::max(0.0, 1.0 - p[i] * t[int64_t(i) % cols]);
    y[0] = s / double(p.size());
''')

CROSS_ENTROPY = wrap('''    auto x = ctx.in("predictions");
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
''')

KL_DIV = wrap('''    auto p = ctx.in("predictions");
    auto t = ctx.in("targets");
    auto y = ctx.out("y");
    const int64_t rows = ctx.dim("B");
    double s = 0;
    for (size_t i = 0; i < p.size(); ++i)
        if (t[i] > 0) s += t[i] * (std::log(t[i]) - std::log(p[i]));
    y[0] = s / double(rows);
''')

TRIPLET = wrap('''    auto a = ctx.in("anchor");
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
''')

ATTENTION = wrap('''    auto q = ctx.in("Q");
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
''')

DIAG_MATMUL = wrap('''    auto a = ctx.in("A");
    auto b = ctx.in("B");
    auto c = ctx.out("C");
    const int64_t N = ctx.dim("N"), M = ctx.dim("M");
    for (int64_t i = 0; i < N; ++i)
        for (int64_t j = 0; j < M; ++j) c[i * M + j] = a[i] * b[i * M + j];
''')

MATVEC = wrap('''    auto a = ctx.in("A");
    auto b = ctx.in("B");
    auto c = ctx.out("C");
    const int64_t M = ctx.dim("M"), K = ctx.dim("K");
    for (int64_t i = 0; i < M; ++i) {
        double acc = 0;
        for (int64_t k = 0; k < K; ++k) acc += a[i * K + k] * b[k];
        c[i] = acc;
    }
''')

SCALAR_MUL = wrap('''    auto a = ctx.in("A");
    auto c = ctx.out("C");
    const double s = ctx.attr("s");
    for (size_t i = 0; i < a.size(); ++i) c[i] = a[i] * s;
''')
