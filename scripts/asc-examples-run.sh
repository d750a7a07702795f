#!/bin/sh
# Runs AscendC's introductory single-file examples (asc-devkit, folder
# examples/01_simd_cpp_api/00_introduction; checked out outside the project, never committed)
# through `sage op PROGRAM.asc` and prints the table of docs/compatibility.md ("Running .asc
# programs"). Each example is copied to a scratch folder, its own scripts/gen_data.py makes the
# inputs and golden file there (needs NumPy: Debian python3-numpy), then sage runs and verifies it.
# Usage: scripts/asc-examples-run.sh [--sage BIN] [--python PY] EXAMPLES_DIR
set -u
sage=$(pwd)/build/bin/sage
python=/usr/bin/python3
while [ $# -gt 0 ]; do
    case "$1" in
    --sage) sage=$2; shift 2 ;;
    --python) python=$2; shift 2 ;;
    -h|--help) sed -n '2,7p' "$0"; exit 0 ;;
    *) break ;;
    esac
done
if [ $# -ne 1 ] || [ ! -d "$1/01_simd_cpp_api/00_introduction" ]; then
    echo "asc-examples-run.sh: pass asc-devkit's examples/ folder (see --help)" >&2
    exit 2
fi
intro=$1/01_simd_cpp_api/00_introduction
scratch=$(mktemp -d /tmp/sage-asc-examples.XXXXXX) || exit 1
# example folder | its output file compared with the golden file its gen_data.py writes (none: the
# program checks its own result)
examples="00_quickstart/hello_world|
01_add/add|
01_add/add_tpipe_tque|output/output.bin=output/golden.bin:float32
02_matrix/matmul_basic_api|output/output.bin=output/golden.bin:float16
02_matrix/matmul_advanced_api|output/output.bin=output/golden.bin:float32
02_matrix/matmul_tensor_api|output/output.bin=output/golden.bin:float32
03_fusion_operation/matmul_leakyrelu_basic_api|output/output.bin=output/golden.bin:float16
03_fusion_operation/matmul_leakyrelu_advanced_api|output/output.bin=output/golden.bin:float32
04_reg_compute/add|output/output.bin=output/golden.bin:float32
04_reg_compute/gelu|output/output.bin=output/golden.bin:float32"
echo "| example | compared | result |"
echo "|---|---|---|"
echo "$examples" | while IFS='|' read -r example compare; do
    [ -d "$intro/$example" ] || continue
    dir="$scratch/$(echo "$example" | tr '/' '_')"
    cp -r "$intro/$example" "$dir"
    if [ -f "$dir/scripts/gen_data.py" ]; then
        (cd "$dir" && mkdir -p input output && "$python" scripts/gen_data.py > /dev/null 2>&1) ||
            { echo "| $example | | inputs not generated (scripts/gen_data.py failed: NumPy missing?) |"; continue; }
    fi
    program=$(ls "$dir"/*.asc | head -n 1)
    if [ -n "$compare" ]; then
        report=$("$sage" op "$program" --compare "$compare" --json 2>&1)
    else
        report=$("$sage" op "$program" --json 2>&1)
    fi
    result=$(printf '%s' "$report" | "$python" -c '
import json, sys
try:
    r = json.load(sys.stdin)
except ValueError:
    print("sage failed"); sys.exit()
if r["verified"]:
    how = "golden file matches" if r["checks"] else "its own check passes (main returns 0)"
    print("**verified**: %d launch(es), %d cycles; %s" % (r["launches"], r["cycles"], how))
else:
    msg = (r["message"] or "").split("\n")[0][:110].replace("|", "/")
    checks = "; ".join("%s %s" % (c["output"], "matches" if c["pass"] else "differs") for c in r["checks"])
    print("not verified: %s%s%s" % (r["status"], ": " + msg if msg else "", "; " + checks if checks else ""))
')
    echo "| $example | ${compare:-(self-check)} | $result |"
done
rm -rf "$scratch"
