# KernelBench level-1 losses as facts (operation, shapes, dtypes) in our own words; each entry as
# task_facts.py describes it. Read by gen.py.
import refs_misc as M
from task_facts import F, SRC, UNIT, collector

TASKS = []
add = collector(TASKS)


# ---- losses: one float32 output y [1] ------------------------------------------------------------
LOSS_CASES = dict(small={"B": 4, "D": 256}, tail={"B": 3, "D": 1001}, perf={"B": 32, "D": 32768})


def loss(nn, slug, what, inputs, kb, ref, src, init, spec=None, gap=None, cases=None, attrs=None):
    add(nn=nn, slug=slug, category="loss", source=SRC % src,
        desc="%s The result is one float32 value y [1]. KernelBench shape: %s." % (
            what, ", ".join("%s=%d" % kv for kv in kb.items())),
        inputs=inputs, outputs=[("y", F, [1])], kb=kb, init=init, tolerance=1e-4, compute=spec, gap=gap, ref=ref,
        attrs=attrs or {}, **(cases or LOSS_CASES))


PT = [("predictions", F, ["B", "D"]), ("targets", F, ["B", "D"])]
loss(94, "mse_loss", "Mean squared error of predictions and targets [B, D]: y = mean((p - t)^2); both uniform in "
                     "[0, 1).", PT, {"B": 32768, "D": 32768}, M.MSE, "94_MSELoss.py",
     {"predictions": UNIT, "targets": UNIT},
     spec={"kind": "reduce_all", "let": [{"name": "d", "expr": "predictions - targets"}], "out": {"y": "mean(d * d)"}})
loss(95, "cross_entropy_loss", "Cross-entropy of logits predictions [B, C] against class indices targets [B] "
                               "(int32; KernelBench uses int64): y = mean over rows of (logsumexp(row) - "
                               "row[target]). Logits uniform in [0, 1), targets in [0, 127].",
     [("predictions", F, ["B", "C"]), ("targets", "int32", ["B"])], {"B": 32768, "C": 4096}, M.CROSS_ENTROPY,
     "95_CrossEntropyLoss.py", {"predictions": UNIT, "targets": {"dist": "randint", "low": 0, "high": 127}},
     spec={"kind": "rowwise", "let": [{"name": "m", "expr": "row_max(predictions)"}],
           "out": {"y": "all_mean(ln(row_sum(exp(predictions - m))) + m - gather(predictions, targets))"}},
     cases=dict(small={"B": 16, "C": 128}, tail={"B": 37, "C": 1001}, perf={"B": 256, "C": 4096}))
loss(96, "huber_loss", "Smooth L1 (Huber, beta = 1) loss of predictions and targets [B, D]: with d = |p - t|, "
                       "y = mean(d < 1 ? d^2 / 2 : d - 1/2); both uniform in [0, 1).", PT, {"B": 32768, "D": 32768},
     M.HUBER, "96_HuberLoss.py", {"predictions": UNIT, "targets": UNIT},
     spec={"kind": "reduce_all", "let": [{"name": "d", "expr": "abs(predictions - targets)"},
                                         {"name": "m", "expr": "min(d, 1)"}],
           "out": {"y": "mean(0.5 * m * m + (d - m))"}})
loss(98, "kl_div_loss", "KL divergence with batch-mean reduction of predictions p and targets t [B, D] (positive, "
                        "uniform in [0.1, 1]): y = sum(t * (ln t - ln p)) / B.", PT, {"B": 16384, "D": 16384},
     M.KL_DIV, "98_KLDivLoss.py", {"predictions": {"dist": "uniform", "low": 0.1, "high": 1},
                                   "targets": {"dist": "uniform", "low": 0.1, "high": 1}},
     spec={"kind": "rowwise", "out": {"y": "all_sum(row_sum(targets * (ln(targets) - ln(predictions)))) / B"}})
loss(99, "triplet_margin_loss", "Triplet margin loss of anchor, positive and negative [B, D] (uniform in [0, 1)), "
                                "margin = 1: y = mean over rows of max(|a - p + 1e-6| - |a - n + 1e-6| + margin, 0) "
                                "with the Euclidean row norm.",
     [("anchor", F, ["B", "D"]), ("positive", F, ["B", "D"]), ("negative", F, ["B", "D"])],
     {"B": 32768, "D": 8192}, M.TRIPLET, "99_TripletMarginLoss.py",
     {"anchor": UNIT, "positive": UNIT, "negative": UNIT},
     spec={"kind": "rowwise", "out": {"y": "all_mean(max(sqrt(row_sum(square(anchor - positive + 0.000001))) - "
                                          "sqrt(row_sum(square(anchor - negative + 0.000001))) + margin, 0))"}},
     cases=dict(small={"B": 4, "D": 256}, tail={"B": 3, "D": 1001}, perf={"B": 128, "D": 8192}),
     attrs={"margin": 1.0})
loss(100, "hinge_loss", "Hinge loss of predictions [B, D] (uniform in [0, 1)) against targets [D] broadcast over "
                        "the rows (KernelBench's targets of length B broadcast along the last axis, B = D there): "
                        "y = mean(max(1 - p * t, 0)). Targets are integers in {-1, 0, 1}.",
     [("predictions", F, ["B", "D"]), ("targets", F, ["D"])], {"B": 32768, "D": 32768}, M.HINGE,
     "100_HingeLoss.py", {"predictions": UNIT, "targets": {"dist": "randint", "low": -1, "high": 1}},
     spec={"kind": "rowwise", "out": {"y": "all_sum(row_sum(relu(1 - predictions * targets))) / (B * D)"}})
