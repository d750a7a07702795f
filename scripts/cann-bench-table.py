#!/usr/bin/python3
"""The table of CANN Bench's operators in docs/cann-bench.md, regenerated from the tools.

    scripts/cann-bench-table.py CHECKOUT/tasks [--sage build/bin/sage] [--check-log FILE] [--bench-json FILE]...

Runs `sage tasks --tasks DIR --json` (each operator, its cases, how many have a measured CANN
baseline, whether the built-in policy drafts it and what it needs), and when given:
  --check-log FILE   the output of `sage tasks --tasks DIR --check`: how many goldens ran per operator
  --bench-json FILE  a report of `sage bench --tasks DIR ... --out FILE` (repeatable, e.g. one per level):
                     the operator score, its accurate cases and mean HAP
Prints the markdown table (one row per operator, by level) and a line of totals.
"""
import argparse
import json
import re
import subprocess
import sys


def golden_column(check_log):
    ran = {}
    if not check_log:
        return ran
    pattern = re.compile(r"^\s+(level\d+|\S*)\s+(\w+)\s+(\d+) of (\d+) goldens ran(.*)$")
    with open(check_log) as f:
        for line in f:
            m = pattern.match(line.rstrip("\n"))
            if not m:
                continue
            rest = m.group(5)
            text = f"{m.group(3)} / {m.group(4)}"
            skipped = re.search(r"skipped, an input over 2 GiB:(.*?)(;|$)", rest)
            if skipped:
                text += f" (skipped:{skipped.group(1)})"
            if "FAILED" in rest:
                text += " FAILED: " + rest.split("first:", 1)[-1].strip()[:80]
            ran[m.group(2)] = text
    return ran


def bench_column(bench_jsons):
    scores = {}
    reports = []
    for path in bench_jsons or []:
        with open(path) as f:
            reports.append(json.load(f))
    for op in (op for report in reports for op in (report.get("cann_bench") or {}).get("operators", [])):
        hap = op.get("mean_hap")
        scores[op["operator"]] = f"{op['score']:.1f} ({op.get('accurate_cases', 0)}/{op.get('cases', 0)} accurate" + \
            (f", mean HAP {hap:.2f})" if isinstance(hap, (int, float)) else ")")
    return scores


def level_lines(bench_jsons):
    """Per level: operators passing every case, accurate cases, mean HAP over the accurate cases with times."""
    lines = []
    for path in bench_jsons or []:
        with open(path) as f:
            report = json.load(f)
        levels = {}
        for row in report.get("tasks", []):
            c = row.get("cann")
            if not c:
                continue
            lv = levels.setdefault(c.get("level", ""), {"ops": 0, "full": 0, "cases": 0, "accurate": 0, "haps": []})
            lv["ops"] += 1
            lv["cases"] += len(c["cases"])
            lv["accurate"] += c.get("accurate_cases", 0)
            lv["full"] += c.get("accurate_cases", 0) == len(c["cases"])
            lv["haps"] += [k["hap"] for k in c["cases"] if k.get("accurate") and isinstance(k.get("hap"), (int, float))]
        for name, lv in sorted(levels.items()):
            mean = sum(lv["haps"]) / len(lv["haps"]) if lv["haps"] else float("nan")
            total = (report.get("cann_bench") or {}).get("levels", {}).get(name, 0.0)
            lines.append(f"{name}: {lv['full']} of {lv['ops']} operators pass every case; {lv['accurate']} of {lv['cases']} cases "
                         f"accurate; mean HAP {mean:.3f} over the {len(lv['haps'])} accurate cases with times; level sum {total:.1f} "
                         f"(device {report.get('device', '?')}, budget {report.get('budget', '?')})")
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tasks")
    ap.add_argument("--sage", default="build/bin/sage")
    ap.add_argument("--check-log")
    ap.add_argument("--bench-json", action="append")
    a = ap.parse_args()
    listing = subprocess.run([a.sage, "tasks", "--tasks", a.tasks, "--json"], capture_output=True, text=True)
    if listing.returncode not in (0, 1) or not listing.stdout.strip():
        sys.exit(f"cann-bench-table: `sage tasks --tasks {a.tasks} --json` failed: {listing.stderr.strip()}")
    rows = json.loads(listing.stdout)
    goldens, scores = golden_column(a.check_log), bench_column(a.bench_json)
    rows.sort(key=lambda r: (r["level"], r["name"]))
    head = "| level | operator | category | cases | measured baselines |"
    rule = "|---|---|---|---|---|"
    if goldens:
        head, rule = head + " goldens ran |", rule + "---|"
    if scores:
        head, rule = head + " agent's score |", rule + "---|"
    print(head + " built-in draft |")
    print(rule + "---|")
    for r in rows:
        line = f"| {r['level']} | {r['name']} | {r['category']} | {r['cases']} | {r['measured_baselines']} |"
        if goldens:
            line += f" {goldens.get(r['name'], '-')} |"
        if scores:
            line += f" {scores.get(r['name'], '-')} |"
        line += f" {'drafts' if r['drafts'] else r['status']} |"
        print(line)
    print()
    print(f"{len(rows)} operators, {sum(r['cases'] for r in rows)} cases, "
          f"{sum(r['measured_baselines'] for r in rows)} with a measured baseline; "
          f"the built-in policy drafts {sum(1 for r in rows if r['drafts'])}.")
    for line in level_lines(a.bench_json):
        print()
        print(line)


if __name__ == "__main__":
    main()
