# KernelBench level-1 elementwise activations over x [B, D] as facts (operation, shapes,
# dtypes) in our own words; each entry as task_facts.py describes it. Read by gen.py.
import refs as R
from task_facts import F, SRC, collector

TASKS = []
add = collector(TASKS)


# ---- elementwise activations over x [B, D] -------------------------------------------------
ACT_CASES = dict(small={"B": 16, "D": 256}, tail={"B": 7, "D": 1001}, perf={"B": 64, "D": 16384})
ACT_INIT = {"x": {"dist": "uniform", "low": -3, "high": 3}}


def act(nn, slug, what, spec, cpp, attrs=None, gap=None, kb=None, src=None):
    add(nn=nn, slug=slug, category="activation", source=SRC % src,
        desc="%s of a float32 tensor x of shape [B, D], element by element (y has x's shape). "
             "Inputs are uniform in [-3, 3]. KernelBench shape: B=%d, D=%d." % (what, (kb or {}).get("B", 4096),
                                                                               (kb or {}).get("D", 393216)),
        inputs=[("x", F, ["B", "D"])], outputs=[("y", F, ["B", "D"])], attrs=attrs or {},
        kb=kb or {"B": 4096, "D": 393216}, init=ACT_INIT,
        compute=None if gap else {"kind": "elementwise", "out": {"y": spec}}, gap=gap,
        ref=R.elementwise(cpp), **ACT_CASES)


act(19, "relu", "ReLU, y = max(x, 0)", "relu(x)", "std::max(v_x, 0.0)", src="19_ReLU.py")
act(20, "leaky_relu", "LeakyReLU, y = x >= 0 ? x : negative_slope * x (negative_slope = 0.01)",
    "leaky_relu(x, negative_slope)", "v_x >= 0 ? v_x : ctx.attr(\"negative_slope\") * v_x",
    attrs={"negative_slope": 0.01}, src="20_LeakyReLU.py")
act(21, "sigmoid", "Sigmoid, y = 1 / (1 + exp(-x))", "sigmoid(x)", "1.0 / (1.0 + std::exp(-v_x))",
    src="21_Sigmoid.py")
act(22, "tanh", "Tanh", "tanh(x)", "std::tanh(v_x)", src="22_Tanh.py")
act(25, "swish", "Swish (SiLU), y = x * sigmoid(x)", "silu(x)", "v_x / (1.0 + std::exp(-v_x))", src="25_Swish.py")
act(26, "gelu", "GELU in its exact form, y = 0.5 * x * (1 + erf(x / sqrt(2)))",
    "0.5 * x * (1 + erf(x * 0.70710678118654752))", "0.5 * v_x * (1.0 + std::erf(v_x / std::sqrt(2.0)))",
    src="26_GELU_.py")
act(27, "selu", "SELU, y = scale * (max(x, 0) + min(alpha * (exp(x) - 1), 0)) with alpha = 1.6732632423543772, "
                "scale = 1.0507009873554805",
    "1.0507009873554805 * (relu(x) + 1.6732632423543772 * (exp(min(x, 0)) - 1))",
    "1.0507009873554805 * (v_x > 0 ? v_x : 1.6732632423543772 * (std::exp(v_x) - 1.0))", src="27_SELU_.py")
act(28, "hard_sigmoid", "HardSigmoid, y = min(max(x / 6 + 1/2, 0), 1)", "min(max(x / 6 + 0.5, 0), 1)",
    "std::min(std::max(v_x / 6.0 + 0.5, 0.0), 1.0)", src="28_HardSigmoid.py")
act(29, "softplus", "Softplus, y = ln(1 + exp(x))", "softplus(x)", "std::log1p(std::exp(v_x))", src="29_Softplus.py")
act(30, "softsign", "Softsign, y = x / (1 + |x|)", "x / (1 + abs(x))", "v_x / (1.0 + std::abs(v_x))",
    src="30_Softsign.py")
act(31, "elu", "ELU, y = x > 0 ? x : alpha * (exp(x) - 1) (alpha = 1)", "relu(x) + alpha * (exp(min(x, 0)) - 1)",
    "v_x > 0 ? v_x : ctx.attr(\"alpha\") * (std::exp(v_x) - 1.0)", attrs={"alpha": 1.0}, src="31_ELU.py")
act(32, "hard_tanh", "HardTanh, y = min(max(x, -1), 1)", "min(max(x, -1), 1)", "std::min(std::max(v_x, -1.0), 1.0)",
    src="32_HardTanh.py")
act(88, "min_gpt_new_gelu", "the tanh-approximated GELU of minGPT, "
                            "y = 0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3)))", "gelu(x)",
    "0.5 * v_x * (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (v_x + 0.044715 * v_x * v_x * v_x)))",
    kb={"B": 8192, "D": 8192}, src="88_MinGPTNewGelu.py")
