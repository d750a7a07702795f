# KernelBench level-1 attention task as facts (operation, shapes, dtypes) in our own words; each entry as
# task_facts.py describes it. Read by gen.py.
import refs_misc as M
from task_facts import F, SRC, UNIT, collector

TASKS = []
add = collector(TASKS)


# ---- scaled dot-product attention ---------------------------------------------------------------
add(nn=97, slug="scaled_dot_product_attention", category="attention",
    source=SRC % "97_ScaledDotProductAttention.py",
    desc="Scaled dot-product attention without mask or dropout: O = softmax(Q K^T / sqrt(D)) V per (batch, head), "
         "Q, K, V, O float32 [B, H, S, D], inputs uniform in [0, 1). KernelBench shape: B=32, H=32, S=512, D=1024.",
    inputs=[("Q", F, ["B", "H", "S", "D"]), ("K", F, ["B", "H", "S", "D"]), ("V", F, ["B", "H", "S", "D"])],
    outputs=[("O", F, ["B", "H", "S", "D"])], kb={"B": 32, "H": 32, "S": 512, "D": 1024},
    small={"B": 1, "H": 2, "S": 16, "D": 32}, tail={"B": 1, "H": 3, "S": 37, "D": 40},
    perf={"B": 1, "H": 4, "S": 256, "D": 128}, init={"Q": UNIT, "K": UNIT, "V": UNIT}, tolerance=1e-3,
    gap="two chained matrix products with a softmax between: the spec has one product and an epilogue",
    ref=M.ATTENTION)
