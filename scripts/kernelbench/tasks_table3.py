# KernelBench level-1 tasks, continued: matrix products, scans, losses and attention.
import refs as R
import refs_misc as M
from tasks_table import SRC, F, add

UNIT = {"dist": "uniform", "low": 0, "high": 1}
PLAIN = 'const int64_t batch = 1, M = ctx.dim("M"), K = ctx.dim("K"), N = ctx.dim("N");'
MM_CASES = dict(small={"M": 64, "K": 32, "N": 48}, tail={"M": 100, "K": 72, "N": 90},
                perf={"M": 256, "K": 1024, "N": 512})
MM_SPEC = {"kind": "matmul", "compute_dtype": "float16", "a": "A", "b": "B", "out": {"C": "acc"}}
MM_NOTE = (" Tolerance 1e-2 (KernelBench's own): the compute spec multiplies in float16 on the cube unit with a "
           "float32 accumulator.")


def mm(nn, slug, what, a_shape, b_shape, c_shape, kb, a_val, b_val, src, cases=None, dims=PLAIN, mask="",
       spec=None, gap=None, init=None):
    add(nn=nn, slug=slug, category="matmul", source=SRC % src,
        desc="%s All float32, inputs uniform in [0, 1). KernelBench shape: %s.%s" % (
            what, ", ".join("%s=%d" % kv for kv in kb.items()), MM_NOTE if spec else ""),
        inputs=[("A", F, a_shape), ("B", F, b_shape)], outputs=[("C", F, c_shape)], kb=kb,
        init=init or {"A": UNIT, "B": UNIT}, tolerance=1e-2, compute=spec, gap=gap,
        ref=R.matmul(dims, a_val, b_val, mask), **(cases or MM_CASES))


ROWMAJOR_A, ROWMAJOR_B = "A[i * K + k]", "Bm[k * N + j]"
SQ = 'const int64_t batch = 1, M = ctx.dim("N"), K = M, N = M;'
SQ_CASES = dict(small={"N": 64}, tail={"N": 100}, perf={"N": 512})
mm(1, "square_matmul", "Square matrix product C = A x B, A and B [N, N].", ["N", "N"], ["N", "N"], ["N", "N"],
   {"N": 4096}, ROWMAJOR_A, ROWMAJOR_B, "1_Square_matrix_multiplication_.py", SQ_CASES, SQ, spec=MM_SPEC)
mm(2, "matmul", "Matrix product C [M, N] = A [M, K] x B [K, N].", ["M", "K"], ["K", "N"], ["M", "N"],
   {"M": 2048, "K": 8192, "N": 4096}, ROWMAJOR_A, ROWMAJOR_B, "2_Standard_matrix_multiplication_.py", spec=MM_SPEC)
mm(3, "batched_matmul", "Batched matrix product C[b] = A[b] x B[b], A [BATCH, M, K], B [BATCH, K, N].",
   ["BATCH", "M", "K"], ["BATCH", "K", "N"], ["BATCH", "M", "N"], {"BATCH": 128, "M": 512, "K": 1024, "N": 2048},
   "A[(b * M + i) * K + k]", "Bm[(b * K + k) * N + j]", "3_Batched_matrix_multiplication.py",
   dict(small={"BATCH": 2, "M": 32, "K": 16, "N": 24}, tail={"BATCH": 3, "M": 37, "K": 20, "N": 45},
        perf={"BATCH": 4, "M": 128, "K": 256, "N": 256}),
   'const int64_t batch = ctx.dim("BATCH"), M = ctx.dim("M"), K = ctx.dim("K"), N = ctx.dim("N");',
   spec=MM_SPEC)
mm(4, "matvec", "Matrix-vector product C [M, 1] = A [M, K] x B [K, 1].", ["M", "K"], ["K", 1], ["M", 1],
   {"M": 2048, "K": 1048576}, ROWMAJOR_A, "Bm[k]", "4_Matrix_vector_multiplication_.py",
   dict(small={"M": 16, "K": 256}, tail={"M": 37, "K": 1001}, perf={"M": 64, "K": 16384}),
   'const int64_t batch = 1, M = ctx.dim("M"), K = ctx.dim("K"), N = 1;', spec=MM_SPEC)
mm(6, "matmul_large_k", "Matrix product with a long reduction axis, C [M, N] = A [M, K] x B [K, N].",
   ["M", "K"], ["K", "N"], ["M", "N"], {"M": 256, "K": 524288, "N": 256}, ROWMAJOR_A, ROWMAJOR_B,
   "6_Matmul_with_large_K_dimension_.py",
   dict(small={"M": 16, "K": 2048, "N": 16}, tail={"M": 37, "K": 3001, "N": 45}, perf={"M": 64, "K": 32768, "N": 64}),
   spec=MM_SPEC)
mm(7, "matmul_small_k", "Matrix product with a short reduction axis (K = 64), C [M, N] = A [M, K] x B [K, N].",
   ["M", "K"], ["K", "N"], ["M", "N"], {"M": 32768, "K": 64, "N": 32768}, ROWMAJOR_A, ROWMAJOR_B,
   "7_Matmul_with_small_K_dimension_.py",
   dict(small={"M": 64, "K": 64, "N": 96}, tail={"M": 101, "K": 64, "N": 93}, perf={"M": 1024, "K": 64, "N": 1024}),
   spec=MM_SPEC)
mm(8, "matmul_irregular", "Matrix product of irregular sizes, C [M, N] = A [M, K] x B [K, N].",
   ["M", "K"], ["K", "N"], ["M", "N"], {"M": 8205, "K": 2949, "N": 5921}, ROWMAJOR_A, ROWMAJOR_B,
   "8_Matmul_with_irregular_shapes_.py",
   dict(small={"M": 33, "K": 29, "N": 59}, tail={"M": 77, "K": 51, "N": 83}, perf={"M": 410, "K": 295, "N": 592}),
   spec=MM_SPEC)
mm(9, "matmul_tall_skinny", "Tall-and-skinny product C [M, M] = A [M, N] x B [N, M] with N = 32 << M.",
   ["M", "N"], ["N", "M"], ["M", "M"], {"M": 32768, "N": 32}, "A[i * K + k]", "Bm[k * N + j]",
   "9_Tall_skinny_matrix_multiplication_.py",
   dict(small={"M": 64, "N": 32}, tail={"M": 101, "N": 32}, perf={"M": 1024, "N": 32}),
   'const int64_t batch = 1, M = ctx.dim("M"), K = ctx.dim("N"), N = M;', spec=MM_SPEC)
mm(10, "matmul_3d_by_2d", "A 3-D tensor times a matrix, C [N, M, L] = A [N, M, K] x B [K, L] (B shared).",
   ["N", "M", "K"], ["K", "L"], ["N", "M", "L"], {"N": 16, "M": 1024, "K": 2048, "L": 768},
   "A[(b * M + i) * K + k]", "Bm[k * N + j]", "10_3D_tensor_matrix_multiplication.py",
   dict(small={"N": 2, "M": 16, "K": 32, "L": 24}, tail={"N": 3, "M": 37, "K": 20, "L": 45},
        perf={"N": 2, "M": 256, "K": 256, "L": 384}),
   'const int64_t batch = ctx.dim("N"), M = ctx.dim("M"), K = ctx.dim("K"), N = ctx.dim("L");',
   spec=MM_SPEC)
mm(11, "matmul_4d_by_2d", "A 4-D tensor times a matrix over its last axis, C[b, i, j, k] = sum_l A[b, i, j, l] * "
                          "B[l, k]; A [B, I, J, L], B [L, K].",
   ["B", "I", "J", "L"], ["L", "K"], ["B", "I", "J", "K"], {"B": 8, "I": 256, "J": 512, "L": 256, "K": 768},
   "A[(b * M + i) * K + k]", "Bm[k * N + j]", "11_4D_tensor_matrix_multiplication.py",
   dict(small={"B": 1, "I": 2, "J": 8, "L": 16, "K": 24}, tail={"B": 1, "I": 3, "J": 7, "L": 20, "K": 45},
        perf={"B": 1, "I": 4, "J": 64, "L": 256, "K": 384}),
   'const int64_t batch = 1, M = ctx.dim("B") * ctx.dim("I") * ctx.dim("J"), K = ctx.dim("L"), N = ctx.dim("K");',
   spec=MM_SPEC)
add(nn=12, slug="diag_matmul", category="matmul", source=SRC % "12_Matmul_with_diagonal_matrices_.py",
    desc="diag(A) x B: row i of B [N, M] scaled by A[i], A [N]. All float32, inputs uniform in [0, 1). KernelBench "
         "shape: N=4096, M=4096.",
    inputs=[("A", F, ["N"]), ("B", F, ["N", "M"])], outputs=[("C", F, ["N", "M"])], kb={"N": 4096, "M": 4096},
    small={"N": 16, "M": 256}, tail={"N": 37, "M": 1001}, perf={"N": 1024, "M": 1024}, init={"A": UNIT, "B": UNIT},
    compute={"kind": "matmul", "a": "A", "b": "B", "layout": {"diagonal_a": True}, "out": {"C": "acc"}},
    ref=M.DIAG_MATMUL)
mm(13, "matmul_symmetric", "Product of two symmetric matrices, C = A x B, A and B [N, N]. Only the upper "
                           "triangle of each operand is read (A[i][k] for i > k means A[k][i]); the inputs are "
                           "random, the operands their symmetric views.", ["N", "N"], ["N", "N"], ["N", "N"],
   {"N": 4096}, "A[std::min(i, k) * K + std::max(i, k)]", "Bm[std::min(k, j) * N + std::max(k, j)]",
   "13_Matmul_for_symmetric_matrices.py", SQ_CASES, SQ,
   spec=dict(MM_SPEC, layout={"symmetric": True}))
mm(14, "matmul_upper_triangular", "Product of two upper-triangular matrices, C = triu(A x B), A and B [N, N]. "
                                  "Entries below the diagonal of A and B are read as zero, and C is zero below "
                                  "its diagonal.", ["N", "N"], ["N", "N"], ["N", "N"], {"N": 4096},
   "(k >= i ? A[i * K + k] : 0.0)", "j >= k ? Bm[k * N + j] : 0.0", "14_Matmul_for_upper_triangular_matrices.py",
   SQ_CASES, SQ, mask="(j >= i ? 1.0 : 0.0) * ", spec=dict(MM_SPEC, layout={"triangular": "upper"}))
mm(15, "matmul_lower_triangular", "Product of two lower-triangular matrices, C = tril(A x B), A and B [N, N]. "
                                  "Entries above the diagonal of A and B are read as zero, and C is zero above "
                                  "its diagonal.", ["N", "N"], ["N", "N"], ["N", "N"], {"N": 4096},
   "(k <= i ? A[i * K + k] : 0.0)", "j <= k ? Bm[k * N + j] : 0.0", "15_Matmul_for_lower_triangular_matrices.py",
   SQ_CASES, SQ, mask="(j <= i ? 1.0 : 0.0) * ", spec=dict(MM_SPEC, layout={"triangular": "lower"}))
mm(16, "matmul_transposed_a", "C [M, N] = A^T x B with A stored [K, M] and B [K, N].", ["K", "M"], ["K", "N"],
   ["M", "N"], {"M": 2048, "K": 8192, "N": 4096}, "A[k * M + i]", ROWMAJOR_B, "16_Matmul_with_transposed_A.py",
   spec=dict(MM_SPEC, layout={"transpose_a": True}))
mm(17, "matmul_transposed_b", "C [M, N] = A x B^T with A stored [M, K] and B [N, K].", ["M", "K"], ["N", "K"],
   ["M", "N"], {"M": 2048, "K": 8192, "N": 4096}, ROWMAJOR_A, "Bm[j * K + k]", "17_Matmul_with_transposed_B.py",
   spec=dict(MM_SPEC, layout={"transpose_b": True}))
mm(18, "matmul_transposed_both", "C [M, N] = A^T x B^T with A stored [K, M] and B [N, K].", ["K", "M"], ["N", "K"],
   ["M", "N"], {"M": 2048, "K": 8192, "N": 4096}, "A[k * M + i]", "Bm[j * K + k]",
   "18_Matmul_with_transposed_both.py",
   spec=dict(MM_SPEC, layout={"transpose_a": True, "transpose_b": True}))

# ---- scans along the last axis of x [B, L] -----------------------------------------------------
SCAN_CASES = dict(small={"B": 4, "L": 256}, tail={"B": 3, "L": 1001}, perf={"B": 32, "L": 32768})


def scan(nn, slug, kind, what, src, out, init=None, mask=False):
    inputs = [("x", F, ["B", "L"])] + ([("mask", "int8", ["B", "L"])] if mask else [])
    init = init or {"x": UNIT}
    if mask:
        init = dict(init, mask={"dist": "randint", "low": 0, "high": 1})
    add(nn=nn, slug=slug, category="scan", source=SRC % src,
        desc="%s along each row (the last axis, dim 1) of a float32 matrix x [B, L]; y has x's shape. KernelBench "
             "shape: B=32768, L=32768." % what,
        inputs=inputs, outputs=[("y", F, ["B", "L"])], attrs={"dim": 1}, kb={"B": 32768, "L": 32768},
        init=init, tolerance=1e-3, compute={"kind": "rowwise", "out": {"y": out}}, ref=R.scan(kind), **SCAN_CASES)


scan(89, "cumsum", "inclusive", "Inclusive prefix sum, y[b][l] = x[b][0] + ... + x[b][l], x uniform in [0, 1),",
     "89_cumsum.py", "row_scan_sum(x)")
scan(90, "cumprod", "product", "Inclusive prefix product, y[b][l] = x[b][0] * ... * x[b][l], with x uniform in "
                               "[0.98, 1.02] so that the products stay representable,", "90_cumprod.py",
     "row_scan_prod(x)",
     init={"x": {"dist": "uniform", "low": 0.98, "high": 1.02}})
scan(91, "cumsum_reverse", "reverse", "Reverse prefix sum, y[b][l] = x[b][l] + ... + x[b][L-1], x uniform in "
                                      "[0, 1),", "91_cumsum_reverse.py",
     "row_scan_sum_rev(x)")
scan(92, "cumsum_exclusive", "exclusive", "Exclusive prefix sum, y[b][0] = 0, y[b][l] = x[b][0] + ... + x[b][l-1], "
                                          "x uniform in [0, 1),", "92_cumsum_exclusive.py",
     "row_scan_sum(x) - x")
scan(93, "masked_cumsum", "masked", "Masked prefix sum, y[b][l] = sum over j <= l of (mask[b][j] ? x[b][j] : 0), "
                                    "mask an int8 0/1 tensor of x's shape, x uniform in [0, 1),",
     "93_masked_cumsum.py", "row_scan_sum(x * mask)", mask=True)

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
