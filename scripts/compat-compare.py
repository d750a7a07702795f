#!/usr/bin/env python3
"""Compares two `sage compat --json` reports of one corpus file by file.

Usage: scripts/compat-compare.py BEFORE.json AFTER.json

Prints the compiled counts of both, every file that compiled before and not after (LOST, with its
new first error) and every file that compiles now and did not before (GAINED). Exits 1 when a file
was lost, so a round of compatibility work can be checked for regressions in one command.
"""
import json
import sys


def files_of(path):
    try:
        with open(path, encoding="utf-8") as f:
            report = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"compat-compare: cannot read {path}: {e}")
    if not isinstance(report, dict) or not isinstance(report.get("files"), list):
        sys.exit(f"compat-compare: {path} is not a `sage compat --json` report (no 'files' list)")
    return {f.get("path", ""): f for f in report["files"]}


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[2])
    before, after = files_of(sys.argv[1]), files_of(sys.argv[2])
    compiled = lambda files: sum(1 for f in files.values() if f.get("compiled"))
    print(f"before {compiled(before)} of {len(before)}, after {compiled(after)} of {len(after)}")
    lost = [p for p in sorted(after) if before.get(p, {}).get("compiled") and not after[p].get("compiled")]
    gained = [p for p in sorted(after) if p in before and not before[p].get("compiled") and after[p].get("compiled")]
    for p in lost:
        print(f"LOST   {p}: {after[p].get('first_error', '')[:200]}")
    for p in gained:
        print(f"GAINED {p}")
    missing = [p for p in before if p not in after]
    if missing:
        print(f"{len(missing)} file(s) of BEFORE are not in AFTER (a different checkout?)")
    return 1 if lost else 0


if __name__ == "__main__":
    sys.exit(main())
