#!/usr/bin/env python3
"""Prints the longest functions in core/, ui/ and app/ (default: ten), longest first, as
`LENGTH  file:line  name`. The length counts every line from the signature to the closing brace,
so a lambda counts towards the function that holds it.

Usage: scripts/longest-functions.py [--top N] [--limit L] [DIR ...]
  --limit L  exit 1 (and say which) when a function is longer than L lines, for CI and reviews.

Function extents come from Universal Ctags (Debian `universal-ctags`, its `end:` field). Ctags names
every unnamed scope `__anon<hash>`, lambdas and anonymous namespaces alike; only the lambdas (and
what lies inside them) are left out, so a function in an anonymous namespace is listed."""
import argparse
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCE_SUFFIXES = (".cpp", ".cc", ".h", ".hpp")


def functions(dirs):
    """Yields (length, path, line, qualified name) for every function definition under `dirs`."""
    cmd = ["ctags", "-R", "--languages=C++", "--map-C++=+.h", "--kinds-C++=fn", "--fields=+neKS",
           "-x", "--_xformat=%{input}\t%{line}\t%{end}\t%{kind}\t%{scope}\t%{name}", *dirs]
    try:
        out = subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True, text=True).stdout
    except FileNotFoundError:
        sys.exit("longest-functions: ctags not found; install Debian's universal-ctags")
    rows = [row.split("\t") for row in out.splitlines()]
    # An `__anon` scope is an anonymous namespace when ctags tagged it as a namespace; any other is
    # a lambda. Skipping every `__anon` scope (as this script once did) also dropped every function
    # in an anonymous namespace, Task.cpp's loadTaskFolder and CompatScan.cpp's opPrelude among them.
    anonymous_namespaces = {(path, qualified(scope, name)) for path, _, _, kind, scope, name in rows
                            if kind == "namespace" and name.startswith("__anon")}
    for path, line, end, kind, scope, name in rows:
        if kind != "function" or not end.isdigit() or not path.endswith(SOURCE_SUFFIXES):
            continue
        shown, inside = [], ""
        for part in ([] if scope in ("-", "") else scope.split("::")) + [name]:
            inside = qualified(inside, part)
            if not part.startswith("__anon"):
                shown.append(part)
            elif (path, inside) not in anonymous_namespaces:
                break  # a lambda, or something inside one: counted towards the function holding it
        else:
            yield int(end) - int(line) + 1, path, int(line), "::".join(shown)


def qualified(scope, name):
    return name if scope in ("-", "") else scope + "::" + name


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
