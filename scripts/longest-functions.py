#!/usr/bin/env python3
"""Prints the longest functions in core/, ui/ and app/ (default: ten), longest first, as
`LENGTH  file:line  name`. The length counts every line from the signature to the closing brace,
so a lambda counts towards the function that holds it.

Usage: scripts/longest-functions.py [--top N] [--limit L] [DIR ...]
  --limit L  exit 1 (and say which) when a function is longer than L lines, for CI and reviews.

Function extents come from Universal Ctags (Debian `universal-ctags`, its `end:` field)."""
import argparse
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCE_SUFFIXES = (".cpp", ".cc", ".h", ".hpp")


def functions(dirs):
    """Yields (length, path, line, qualified name) for every function definition under `dirs`."""
    cmd = ["ctags", "-R", "--languages=C++", "--map-C++=+.h", "--kinds-C++=f", "--fields=+neS",
           "-x", "--_xformat=%{input}\t%{line}\t%{end}\t%{scope}\t%{name}", *dirs]
    try:
        out = subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True, text=True).stdout
    except FileNotFoundError:
        sys.exit("longest-functions: ctags not found; install Debian's universal-ctags")
    for row in out.splitlines():
        path, line, end, scope, name = row.split("\t")
        # Lambdas are anonymous and lie inside the function that holds them: counted there.
        if name.startswith("__anon") or not end.isdigit() or not path.endswith(SOURCE_SUFFIXES):
            continue
        if "__anon" in scope:
            continue
        scope = "" if scope in ("-", "") else scope + "::"
        yield int(end) - int(line) + 1, path, int(line), scope + name


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=10)
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("dirs", nargs="*", default=["core", "ui", "app"])
    args = parser.parse_args()
    missing = [d for d in args.dirs if not os.path.isdir(os.path.join(ROOT, d))]
    if missing:
        sys.exit(f"longest-functions: no such folder under {ROOT}: {', '.join(missing)}")
    ranked = sorted(functions(args.dirs), key=lambda f: (-f[0], f[1], f[2]))
    for length, path, line, name in ranked[: args.top]:
        print(f"{length:5d}  {path}:{line}  {name}")
    if args.limit:
        over = [f for f in ranked if f[0] > args.limit]
        if over:
            print(f"{len(over)} function(s) longer than {args.limit} lines", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
