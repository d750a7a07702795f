// The machine-readable description of what a task computes: task.json's "compute" object.
// The kernel composer (core/agent) drafts a kernel from it; docs/tasks.md documents the format.
//
//   "compute": {
//     "kind": "elementwise" | "rowwise" | "axis" | "reduce_all" | "matmul" | "window",
//     "compute_dtype": "float32",            // optional: compute in this type, cast in and out
//     "let": [{"name": "m", "expr": "row_max(x)"}, ...],   // optional named steps, in order
//     "out": {"y": "exp(x - m) / row_sum(exp(x - m))"},   // one expression per output
//     "a": "a", "b": "b"                       // matmul only: the operands; "acc" = a x b
//     "window": {"op": "conv", "input": "x", ...}  // window only (WindowSpec); "acc" = its result
//   }
//
// Expressions: numbers, names (inputs, attrs, earlier lets, "acc" in a matmul), + - * /, unary
// minus, parentheses and the functions of functionTable().
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace sage::eval {

struct Expr {
    enum class Op { Number, Ref, Neg, Add, Sub, Mul, Div, Call };
    Op op = Op::Number;
    double number = 0;
    std::string name;  // Ref: the name; Call: the function
    std::vector<Expr> args;
    std::string text() const;  // fully parenthesised, for messages and cache keys
};

// Thrown by parseExpression: `column` is 1-based within the text.
struct ExprSyntaxError : std::runtime_error {
    ExprSyntaxError(const std::string& what, size_t column) : std::runtime_error(what), column(column) {}
    size_t column;
};
Expr parseExpression(const std::string& text);

struct FunctionInfo {
    std::string name;
    int arity;
    // elementwise: per element; row_reduce: a row of a rowwise spec to one value per row;
    // row_scan: a running sum/product along the row; rows_total: a per-row value summed over rows;
    // all_reduce: every element of a reduce_all spec to one value; gather: x[row][index[row]].
    std::string kind;
};
const std::vector<FunctionInfo>& functionTable();
const FunctionInfo* findFunction(const std::string& name);

struct ComputeStep {
    std::string name;
    std::string field;  // where it came from, e.g. "compute.let[1].expr", for the composer's errors
    Expr expr;
};

// kind "window": a sliding window over the trailing 1-3 axes of `input` [N, C, spatial...]
// (convolution, transposed convolution, max and average pooling). Every geometry entry is an
// attr name or a non-negative integer literal, kept as text; the draft resolves it.
struct WindowSpec {
    std::string op;                    // conv | conv_transpose | max_pool | avg_pool
    std::string input, weight, bias;   // weight: conv ops only; bias: optional, conv ops only
    std::vector<std::string> kernel, stride, padding, dilation, outputPadding;  // one per spatial axis
    std::string groups = "1";          // conv ops only
    nlohmann::json toJson() const;
};

// kind "matmul", optional compute.layout: how the operands are stored and read.
struct MatmulLayout {
    bool transposeA = false, transposeB = false;  // a stored [K, M] / b stored [N, K]
    std::string triangular;                       // "", "upper" or "lower": both operands read as that triangle
    bool diagonalA = false;                       // a is a [M] vector: acc = diag(a) x b
    bool symmetric = false;                       // both square operands read as their upper triangle mirrored
    nlohmann::json toJson() const;
};

struct ComputeSpec {
    bool present = false;
    std::string kind;          // elementwise | rowwise | axis | reduce_all | matmul | window
    std::string computeDtype;  // empty: each input's own type (bfloat16 computes in float32)
    std::vector<ComputeStep> lets;
    std::vector<ComputeStep> outputs;  // in the order of the task's outputs
    std::string a, b;                  // matmul operands
    int rowAxes = 1;                   // rowwise: how many trailing axes make one row
    int rowLeadAxes = 0;               // rowwise: how many leading axes also belong to a row (batch norm: N)
    int axis = 0;                      // axis: the axis the row reductions reduce
    WindowSpec window;                 // kind "window" only
    MatmulLayout layout;               // kind "matmul" only
    // elementwise, optional compute.split: {"x": ["x0", "x1"]} reads input x [rows, P * w] as P
    // equal parts [rows, w] along its last axis (SwiGLU's chunk(2, dim)); the parts are names
    // in the expressions, x itself is not. The outputs and other inputs are [rows, w].
    std::vector<std::pair<std::string, std::vector<std::string>>> split;

    // What the parser needs to know of the task.
    struct Names {
        std::vector<std::string> inputs, outputs, attrs;
        std::vector<std::string> dims;  // shape symbols: usable as numbers in expressions
    };
    // Throws std::invalid_argument("field 'compute.<...>': <what>"); the caller adds the file.
    static ComputeSpec parse(const nlohmann::json& j, const Names& names);
    nlohmann::json toJson() const;
};

// Parses compute.layout (ComputeMatmul.cpp); throws like ComputeSpec::parse.
MatmulLayout parseMatmulLayout(const nlohmann::json& j);
// Parses compute.window (ComputeWindow.cpp); throws like ComputeSpec::parse.
WindowSpec parseWindowSpec(const nlohmann::json& j, const ComputeSpec::Names& names);

} // namespace sage::eval
