#include "sage_reference.h"

#include <cmath>

SAGE_REFERENCE(ctx) {
    auto x = ctx.in("x");
    auto y = ctx.out("y");
    const size_t plane = size_t(ctx.dim("H") * ctx.dim("W"));
    for (size_t k = 0; k < y.size(); ++k) {
        double sum = 0;
        for (size_t i = 0; i < plane; ++i) sum += x[k * plane + i];
        y[k] = sum / double(plane);
    }
}
