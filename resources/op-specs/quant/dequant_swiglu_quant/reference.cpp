// DequantSwigluQuant for a float input, in double: the SwiGLU of the two halves of each row, then
// per-row symmetric int8 quantization (largest magnitude to 127, round to nearest, ties to even).
#include "sage_reference.h"

#include <algorithm>
#include <cmath>
#include <vector>

SAGE_REFERENCE(ctx) {
    auto x = ctx.in("x");
    auto y = ctx.out("y");
    auto scale = ctx.out("scale");
    const int64_t rows = ctx.dim("R"), half = ctx.dim("H");
    const bool left = ctx.attr("activate_left") != 0;
    std::vector<double> s(static_cast<size_t>(half));
    for (int64_t r = 0; r < rows; ++r) {
        double largest = 0;
        for (int64_t h = 0; h < half; ++h) {
            const double a = x[size_t(r * 2 * half + h)], b = x[size_t(r * 2 * half + half + h)];
            const double act = left ? a : b, other = left ? b : a;
            s[size_t(h)] = act / (1.0 + std::exp(-act)) * other;
            largest = std::max(largest, std::fabs(s[size_t(h)]));
        }
        const double step = largest / 127.0;
        scale[size_t(r)] = step;
        for (int64_t h = 0; h < half; ++h)
            y[size_t(r * half + h)] = std::clamp(step == 0 ? 0.0 : std::nearbyint(s[size_t(h)] / step), -128.0, 127.0);
    }
}
