#include "sage_reference.h"

#include <cmath>

SAGE_REFERENCE(ctx) {
    auto a = ctx.in("input");
    auto b = ctx.in("target");
    auto out = ctx.out("output");
    if (out.size() == a.size()) {
        for (size_t i = 0; i < a.size(); ++i) out[i] = (a[i] - b[i]) * (a[i] - b[i]);
        return;
    }
    double sum = 0;
    for (size_t i = 0; i < a.size(); ++i) sum += (a[i] - b[i]) * (a[i] - b[i]);
    out[0] = ctx.attr("mean_mode") != 0 ? sum / double(a.size()) : sum;
}
