#include "sage_reference.h"

#include <cmath>

SAGE_REFERENCE(ctx) {
    auto grad = ctx.in("grad");
    auto var = ctx.in("var");
    auto m = ctx.in("m");
    auto v = ctx.in("v");
    auto s = ctx.in("s");
    const double step = ctx.in("step")[0];
    auto varOut = ctx.out("var_ref");
    auto mOut = ctx.out("m_ref");
    auto vOut = ctx.out("v_ref");
    auto sOut = ctx.out("s_ref");
    const double lr = ctx.attr("lr"), b1 = ctx.attr("beta1"), b2 = ctx.attr("beta2"), eps = ctx.attr("eps");
    const double wd = ctx.attr("weight_decay"), ema = ctx.attr("ema_decay");
    const bool decoupled = ctx.attr("mode") != 0, corrected = ctx.attr("bias_correction") != 0;
    const double c1 = corrected ? 1.0 - std::pow(b1, step) : 1.0, c2 = corrected ? 1.0 - std::pow(b2, step) : 1.0;
    for (size_t i = 0; i < varOut.size(); ++i) {
        const double g = decoupled ? grad[i] : grad[i] + wd * var[i];
        const double mNew = b1 * m[i] + (1.0 - b1) * g;
        const double vNew = b2 * v[i] + (1.0 - b2) * g * g;
        const double denom = std::sqrt(vNew / c2) + eps;
        const double update = mNew / c1 / denom + (decoupled ? wd * var[i] : 0.0);
        const double varNew = var[i] - lr * update;
        mOut[i] = mNew;
        vOut[i] = vNew;
        varOut[i] = varNew;
        sOut[i] = ema * s[i] + (1.0 - ema) * varNew;
    }
}
