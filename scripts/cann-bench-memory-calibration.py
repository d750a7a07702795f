#!/usr/bin/python3
"""Calibrates the 910B2 memory path (launch floor, L2 rate, HBM rate) on CANN Bench's measured times.

    scripts/cann-bench-memory-calibration.py CHECKOUT/tasks [--json OUT]

CANN Bench times each case on a real 910B2 after 5 warm-up launches (metadata/910b2.json,
`baseline_perf_us`; a case is *measured* when that differs from the stand-in max(10 x t_hw_us, 10)).
A repeated launch finds in the L2 (192 MiB) the share min(1, L2 / footprint) of its data, so a
memory-bound kernel takes

    t = T0 + traffic x (h / R_L2 + (1 - h) / R_HBM),   h = min(1, 192 MiB / footprint)

Calibration uses only operators A–L (fixed before the first run, as in docs/device-model.md):
  1. T0 and R_L2: a least-squares line t = T0 + traffic / R_L2 through the float32 cases of `gelu`
     (one input, one output: the A–L kernel closest to a pure stream) whose footprint fits in L2;
  2. R_HBM: the median, over the float32 cases of the A–L streaming operators (gelu, exp,
     foreach_addcdiv_scalar, apply_adam_w) whose footprint exceeds L2, of the rate that makes the
     formula meet the measured time.
Judging uses only operators M–Z: the float32 cases of `sigmoid` and same-shape `maximum`, predicted
with the calibrated constants, and with h = 0 (no L2: every byte at R_HBM) as the "off" baseline.
Prints the constants, the Spearman rank correlation, median predicted/measured ratio and the share
within 2x for both, and every held-out case.
"""
import argparse
import json
import statistics

from cann_bench_common import flat_shapes, input_bytes, measured_cases as measured, spearman

L2_BYTES = 192 * 2**20  # 910B2 L2 (shared/reference/npu-device-facts.md)
# operator -> (level, inputs, outputs written per input element of the first input's shape)
STREAMS = {
    "gelu": ("level1", 1, 1), "exp": ("level1", 1, 1), "foreach_addcdiv_scalar": ("level1", 3, 1),
    "apply_adam_w": ("level2", 4, 3), "sigmoid": ("level1", 1, 1), "maximum": ("level2", 2, 1),
}
CALIBRATE = ["gelu", "exp", "foreach_addcdiv_scalar", "apply_adam_w"]
HELD_OUT = ["sigmoid", "maximum"]


def measured_cases(tasks, op):
    level, n_in, n_out = STREAMS[op]
    for case, us in measured(tasks, level, op):
        dtype = case["dtype"][0] if isinstance(case["dtype"], list) else case["dtype"]
        shapes = flat_shapes(case["input_shape"])
        if dtype != "float32" or len({tuple(s) for s in shapes}) > 1 and op == "maximum":
            continue  # float32 only (memory-bound); maximum without broadcasting
        traffic = input_bytes(case) * (n_in + n_out) / n_in  # every input, and outputs of their size
        yield {"op": op, "case": case["case_id"], "traffic": traffic, "us": us}


def l2_share(footprint):
    return min(1.0, L2_BYTES / footprint)


def predict(c, t0, r_l2, r_hbm, with_l2=True):
    h = l2_share(c["traffic"]) if with_l2 else 0.0
    return t0 + c["traffic"] / 1e6 * (h / r_l2 + (1 - h) / r_hbm)  # rates in TB/s = bytes per µs / 1e6


def judge(cases, t0, r_l2, r_hbm, with_l2):
    pred = [predict(c, t0, r_l2, r_hbm, with_l2) for c in cases]
    meas = [c["us"] for c in cases]
    ratios = [p / m for p, m in zip(pred, meas)]
    return {"cases": len(cases), "spearman": round(spearman(pred, meas), 3),
            "median_ratio": round(statistics.median(ratios), 3),
            "within_2x": round(sum(0.5 <= r <= 2 for r in ratios) / len(ratios), 3)}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tasks", help="CANN Bench's tasks/ folder")
    ap.add_argument("--json", help="write the constants and figures here")
    a = ap.parse_args()

    gelu = [c for c in measured_cases(a.tasks, "gelu") if c["traffic"] <= L2_BYTES]
    xs, ys = [c["traffic"] / 1e6 for c in gelu], [c["us"] for c in gelu]  # MB, µs
    mx, my = statistics.mean(xs), statistics.mean(ys)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    t0, r_l2 = my - slope * mx, 1.0 / slope
    big = [c for op in CALIBRATE for c in measured_cases(a.tasks, op) if c["traffic"] > L2_BYTES]
    hbm = []
    for c in big:
        h = l2_share(c["traffic"])
        rest = c["us"] - t0 - c["traffic"] / 1e6 * h / r_l2
        if rest > 0:
            hbm.append(c["traffic"] / 1e6 * (1 - h) / rest)
    r_hbm = statistics.median(hbm)
    print(f"calibration (A–L): T0 {t0:.2f} us and L2 rate {r_l2:.2f} TB/s from {len(gelu)} gelu float32 cases "
          f"in L2; HBM rate {r_hbm:.2f} TB/s (median of {len(hbm)} A–L float32 cases beyond L2)")

    held = [c for op in HELD_OUT for c in measured_cases(a.tasks, op)]
    on, off = judge(held, t0, r_l2, r_hbm, True), judge(held, t0, r_l2, r_hbm, False)
    print(f"held out (M–Z: {', '.join(HELD_OUT)} float32, {len(held)} cases):")
    print(f"  with L2:       Spearman {on['spearman']}, median predicted/measured {on['median_ratio']}, "
          f"within 2x {on['within_2x']:.0%}")
    print(f"  without (off): Spearman {off['spearman']}, median predicted/measured {off['median_ratio']}, "
          f"within 2x {off['within_2x']:.0%}")
    print("| operator | case | footprint MiB | L2 share | measured µs | predicted µs | without L2 µs |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for c in sorted(held, key=lambda c: c["traffic"]):
        print(f"| {c['op']} | {c['case']} | {c['traffic'] / 2**20:.1f} | {l2_share(c['traffic']):.2f} | {c['us']:.2f} | "
              f"{predict(c, t0, r_l2, r_hbm):.2f} | {predict(c, t0, r_l2, r_hbm, False):.2f} |")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"t0_us": t0, "l2_tbps": r_l2, "hbm_tbps": r_hbm, "held_out_with_l2": on,
                       "held_out_without_l2": off}, f, indent=1)


if __name__ == "__main__":
    main()
