# KernelBench level-1 matrix products (and the matrix-scalar product) as facts (operation, shapes,
# dtypes) in our own words; each entry as task_facts.py describes it. Read by gen.py.
import refs as R
import refs_misc as M
from task_facts import F, SRC, UNIT, collector

TASKS = []
add = collector(TASKS)


# ---- matrix products ---------------------------------------------------------------------------
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

add(nn=5, slug="matrix_scalar_mul", category="matmul", source=SRC % "5_Matrix_scalar_multiplication.py",
    desc="Multiply a float32 matrix A [M, N] by the scalar s = 3.14: C = A * s. KernelBench shape: M=65536, "
         "N=16384.",
    inputs=[("A", F, ["M", "N"])], outputs=[("C", F, ["M", "N"])], attrs={"s": 3.14},
    small={"M": 16, "N": 256}, tail={"M": 7, "N": 1001}, perf={"M": 64, "N": 16384}, kb={"M": 65536, "N": 16384},
    init={"A": {"dist": "uniform", "low": 0, "high": 1}},
    compute={"kind": "elementwise", "out": {"C": "A * s"}}, ref=M.SCALAR_MUL)
