// AddRmsNormDynamicQuant without smooth scales, in double: the sum of the two inputs (also an
// output), its RMS normalization times gamma, then per-row symmetric int8 quantization. y2 and
// scale2 are undefined for these inputs; they are written as zeros and not verified.
#include "sage_reference.h"

#include <algorithm>
#include <cmath>
#include <vector>

SAGE_REFERENCE(ctx) {
    auto x1 = ctx.in("x1");
    auto x2 = ctx.in("x2");
    auto gamma = ctx.in("gamma");
    auto y1 = ctx.out("y1");
    auto y2 = ctx.out("y2");
    auto x = ctx.out("x");
    auto scale1 = ctx.out("scale1");
    auto scale2 = ctx.out("scale2");
    const double eps = ctx.attr("epsilon");
    const int64_t rows = ctx.dim("R"), cols = ctx.dim("D");
    std::vector<double> normed(static_cast<size_t>(cols));
    for (int64_t r = 0; r < rows; ++r) {
        double squares = 0;
        for (int64_t c = 0; c < cols; ++c) {
            const size_t i = size_t(r * cols + c);
            const double sum = double(x1[i]) + double(x2[i]);
            x[i] = sum;
            squares += sum * sum;
        }
        const double rstd = 1.0 / std::sqrt(squares / double(cols) + eps);
        double largest = 0;
        for (int64_t c = 0; c < cols; ++c) {
            const size_t i = size_t(r * cols + c);
            normed[size_t(c)] = (double(x1[i]) + double(x2[i])) * rstd * gamma[size_t(c)];
            largest = std::max(largest, std::fabs(normed[size_t(c)]));
        }
        const double step = largest / 127.0;
        scale1[size_t(r)] = step;
        scale2[size_t(r)] = 0;
        for (int64_t c = 0; c < cols; ++c) {
            const size_t i = size_t(r * cols + c);
            y1[i] = std::clamp(step == 0 ? 0.0 : std::nearbyint(normed[size_t(c)] / step), -128.0, 127.0);
            y2[i] = 0;
        }
    }
}
