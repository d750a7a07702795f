#include "sage_reference.h"

SAGE_REFERENCE(ctx) {
    auto acc = ctx.in("acc");
    const double step = ctx.in("step")[0];
    auto out = ctx.out("acc_ref");
    for (size_t i = 0; i < out.size(); ++i) out[i] = acc[i] + step;
}
