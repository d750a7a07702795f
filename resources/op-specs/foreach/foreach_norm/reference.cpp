// ForeachNorm in double: the p-norm of every tensor of the list, p read from the scalar input.
#include "sage_reference.h"

#include <cmath>
#include <string>

SAGE_REFERENCE(ctx) {
    const double p = ctx.in("scalar")[0];
    for (int64_t i = 0; i < ctx.dim("K"); ++i) {
        auto x = ctx.in(("x_" + std::to_string(i)).c_str());
        auto y = ctx.out(("y_" + std::to_string(i)).c_str());
        double sum = 0;
        for (double v : x) sum += std::pow(std::fabs(v), p);
        y[0] = std::pow(sum, 1.0 / p);
    }
}
