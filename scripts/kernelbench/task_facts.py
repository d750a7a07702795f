# What every KernelBench level-1 task family module shares: the entry format and its helpers.
#
# Each entry (one dict per task): nn (KernelBench's task number), slug, category, source, desc,
# inputs/outputs [(name, dtype, shape)], attrs, cases (small, tail, perf: dims per case), kb
# (KernelBench's own dims), init, tolerance, and either compute (our spec) or gap (why the spec
# cannot say it), ref (the reference C++). gen.py turns the entries into task folders.

F = "float32"
SRC = "KernelBench level1/%s"
UNIT = {"dist": "uniform", "low": 0, "high": 1}


def collector(tasks):
    """The add(**entry) of one family module: appends to that module's own TASKS list, so no family
    module imports another (gen.py gathers them)."""
    def add(**t):
        t.setdefault("attrs", {})
        tasks.append(t)
    return add


def dims_text(kb):
    return ", ".join("%s=%d" % kv for kv in kb.items())
