// ForeachAddcdivScalar in double: x1 + s * x2 / x3 for each position of the three lists.
#include "sage_reference.h"

#include <string>

SAGE_REFERENCE(ctx) {
    const double s = ctx.in("scalar")[0];
    for (int64_t i = 0; i < ctx.dim("K"); ++i) {
        const std::string k = std::to_string(i);
        auto x1 = ctx.in(("x1_" + k).c_str());
        auto x2 = ctx.in(("x2_" + k).c_str());
        auto x3 = ctx.in(("x3_" + k).c_str());
        auto y = ctx.out(("y_" + k).c_str());
        for (size_t e = 0; e < y.size(); ++e) y[e] = x1[e] + s * x2[e] / x3[e];
    }
}
