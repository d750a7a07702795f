// The boundary between the templated kernel API headers and the simulator runtime
// (libsage_npu). Everything here is type-erased so that the heavy work (checks, timing,
// race detection, functional execution) is compiled once into the runtime, keeping kernel
// compiles fast. Kernel code never calls these directly.
#pragma once

#include "kernel_types.h"

#include <cstddef>
#include <cstdint>
#include <source_location>

namespace sage::npu {

using Loc = std::source_location;

// Storage positions (AscendC's TPosition / QuePosition).
// LCM is AscendC's alias of VECCALC; TSCM is a buffer in L1 (filled by MTE2, read by MTE1);
// MAX marks an unused slot (TQueConfig's consumer list), never a buffer's position.
enum class Pos : uint8_t { GM, VECIN, VECOUT, VECCALC, A1, A2, B1, B2, C1, C2, CO1, CO2, TSCM, MAX, LCM = VECCALC };
// Hardware pipes. S = scalar unit, V = vector, M = cube, FIX = fixpipe (L0C -> GM).
enum class PipeId : uint8_t { S, V, M, MTE1, MTE2, MTE3, FIX, ALL };
constexpr int kPipeCount = 7;

// A region of a core's local memory: which memory (by position), byte address, length.
struct LocalRef {
    Pos pos = Pos::VECCALC;
    uint32_t addr = 0;
    uint32_t bytes = 0;
};

// A region of global memory as a GlobalTensor sees it. `limit` is the end of what
// SetGlobalBuffer declared (nullptr when it declared no size).
struct GmRef {
    uint8_t* ptr = nullptr;
    const uint8_t* limit = nullptr;
};

enum class VecOp : uint8_t {
    // binary (tensor, tensor)
    Add, Sub, Mul, Div, Max, Min, And, Or,
    // tensor-scalar
    Adds, Muls, Maxs, Mins, LeakyRelu, ShiftLeft, ShiftRight,
    // unary
    Exp, Ln, Abs, Relu, Sqrt, Rsqrt, Reciprocal, Not, Neg,
    // composite (advanced API)
    Sigmoid, Tanh, Gelu, Silu, Softplus,
    // fill
    Duplicate,
    // advanced math library (lib/math): unary, then Power's three forms
    Sin, Cos, Tan, Asin, Acos, Atan, Sinh, Cosh, Erf, Erfc, Sign, Log2, Log10, Floor, Ceil, Round, Trunc,
    Pow, Pows, RPows,
    // UB -> UB copy on the vector unit (Copy)
    Copy,
    // GELU approximations of the activation library (composite)
    FasterGelu, FasterGeluV2,
    // inverse hyperbolic functions of the math library
    Asinh, Acosh, Atanh,
    // fused binary: the sum or difference, then Relu
    AddRelu, SubRelu,
};

enum class ReduceOp : uint8_t { Sum, Max, Min };

// The library's element-wise functions over up to three operands of their own types (vecLibrary):
// Fma a*b+c, Clamp min(max(a, b), c), Where c ? a : b, Fmod, Frac a - trunc(a), Rint (ties to
// even), IsFinite (1 or 0), Swish a*sigmoid(beta*a), SwiGLU a*b*sigmoid(beta*b), GeGLU a*gelu(b),
// BitwiseAnd, BitwiseXor and LogicalAnd (1 or 0).
enum class LibOp : uint8_t { Fma, Clamp, Where, Fmod, Frac, Rint, IsFinite, Swish, SwiGLU, GeGLU, BitwiseAnd, BitwiseXor, LogicalAnd };
// One operand of a library function: a tensor of type `type`, or (tensor null) the scalar `value`.
struct LibOperand {
    const LocalRef* tensor = nullptr;
    DType type = DType::F32;
    double value = 0;
};

// One vector instruction in "repeat" form: `repeat` iterations of up to 8 32-byte blocks,
// a mask selecting elements per repeat, strides in 32-byte blocks.
struct RepeatForm {
    uint64_t mask[2] = {~0ull, ~0ull};  // 128 bits (16-bit types) or the low 64 (32-bit types)
    uint32_t repeat = 1;
    uint16_t dstBlk = 1, src0Blk = 1, src1Blk = 1;
    uint16_t dstRep = 8, src0Rep = 8, src1Rep = 8;
};

// A 2-D copy: blockCount blocks of blockLen bytes; gaps between blocks in bytes.
// `padTo32` pads each destination block to a 32-byte boundary (DataCopyPad GM -> UB),
// `srcPadded` means each source block is stored padded (DataCopyPad UB -> GM).
struct CopyShape {
    uint32_t blockCount = 1;
    uint32_t blockLen = 0;
    uint32_t srcGap = 0;
    uint32_t dstGap = 0;
    bool pad = false;
    bool padValueSet = false;
    uint8_t leftPad = 0, rightPad = 0;  // elements
    uint64_t padBits = 0;               // padding value bit pattern
};

namespace rt {

// --- cores and launch ----------------------------------------------------------------
int64_t blockIdx();
int64_t blockNum();
void setTaskType(int type);
uint64_t tilingKey();
void launch(const char* kernelName, uint32_t blockDim, void (*body)(void*), void* ctx, Loc loc);
void kernelAssert(bool ok, const char* expr, const char* message, Loc loc);
void* gmAlloc(size_t bytes);
void gmFree(void* p);
void copyTiling(void* dst, size_t bytes, const void* src, Loc loc);

// --- pipe, queues, buffers ---------------------------------------------------------
void pipeCreate(void* pipe);
void pipeDestroy(void* pipe);
void pipeReset(void* pipe);
int queueCreate(Pos src, Pos dst, int depth);
// `pool`: the TBufPool the buffers come from (-1: the pipe's free memory).
bool queueInit(int queue, int num, uint32_t len, Loc loc, int pool = -1);
LocalRef queueAlloc(int queue, Loc loc);
void queueFree(int queue, const LocalRef& ref, Loc loc);
void queueEnque(int queue, const LocalRef& ref, Loc loc);
LocalRef queueDeque(int queue, Loc loc);
bool queueHasData(int queue);
int bufCreate(Pos pos);
bool bufInit(int buf, uint32_t len, Loc loc, int pool = -1);
// TBufPool: a region carved from the pipe (parent -1) or from another pool, or sharing the start
// and length of `share`; Reset rewinds its InitBuffer space to the start.
int bufPoolCreate(Pos pos);
bool bufPoolInit(int pool, int parent, uint32_t len, int share, Loc loc);
void bufPoolReset(int pool, Loc loc);
LocalRef bufGet(int buf, uint32_t bytes, uint32_t offset, Loc loc);
int fetchEventId(int hardEvent, Loc loc);
// The part of `pos`'s memory no InitBuffer has reserved yet (PopStackBuffer); bytes 0 when none.
LocalRef freeTail(Pos pos, Loc loc);
void releaseEventId(int hardEvent, int id);

// --- scalar access -------------------------------------------------------------------
uint8_t* localBase(Pos pos);
// Checks bounds, orders the scalar unit after the pipes that touch the bytes, costs it.
uint8_t* scalarLocal(const LocalRef& ref, uint64_t byteOffset, uint32_t bytes, bool write, Loc loc);
uint8_t* scalarGm(const GmRef& gm, uint64_t byteOffset, uint32_t bytes, bool write, Loc loc);
// A scalar store to GM (SetValue): scalarGm's checks and cost, then the write, recorded as the device's.
void scalarGmStore(const GmRef& gm, uint64_t byteOffset, const void* value, uint32_t bytes, Loc loc);
void scalarWork(uint32_t cycles);

// --- data movement -------------------------------------------------------------------
void copyGmToLocal(const LocalRef& dst, const GmRef& src, const CopyShape& s, DType t, bool padApi, Loc loc);
void copyLocalToGm(const GmRef& dst, const LocalRef& src, const CopyShape& s, DType t, bool padApi, Loc loc);
void copyLocalToLocal(const LocalRef& dst, const LocalRef& src, const CopyShape& s, DType t, Loc loc);
void setAtomic(int mode, DType t);  // 0 none, 1 add, 2 max, 3 min
// SetPadValue: the value (its `bytes` raw bytes) DataCopyPad pads with when its params' isPad is false.
void setPadValue(const void* bits, uint32_t bytes);
// SetLoopModePara (Ascend 950): two loops around each following GM -> UB (toUb) or UB -> GM copy;
// strides in bytes. resetLoopMode ends them.
struct LoopMode {
    uint32_t size1 = 0, size2 = 0;
    uint64_t srcStride1 = 0, dstStride1 = 0, srcStride2 = 0, dstStride2 = 0;
};
void setLoopMode(bool toUb, const LoopMode& mode, Loc loc);
void resetLoopMode(bool toUb);
// Multi-dimensional GM -> UB copy (Ascend 950 nd-DMA): up to 5 loops, [0] innermost; sizes and
// strides in elements; lp/rp elements of padding before/after each loop's data, filled with
// padBits (constant mode) or with the nearest element read (nearest-value mode).
struct NdCopy {
    uint8_t dims = 1;
    uint32_t size[5] = {};
    uint64_t srcStride[5] = {};
    uint32_t dstStride[5] = {};
    uint8_t lp[5] = {}, rp[5] = {};
    bool nearest = false;
    uint64_t padBits = 0;
};
void copyGmToLocalNd(const LocalRef& dst, const GmRef& src, const NdCopy& p, DType t, Loc loc);

// --- vector --------------------------------------------------------------------------
void vecCount(VecOp op, DType t, const LocalRef& dst, const LocalRef& s0, const LocalRef* s1, double scalar,
              uint64_t count, Loc loc);
void vecRepeat(VecOp op, DType t, const LocalRef& dst, const LocalRef& s0, const LocalRef* s1, double scalar,
               const RepeatForm& form, bool maskCounter, Loc loc);
// Interleave (de = false) / DeInterleave of whole tensors; s1 null: DeInterleave of one source of
// `count` elements into two halves.
void vecInterleave(bool de, DType t, const LocalRef& dst0, const LocalRef& dst1, const LocalRef& s0,
                   const LocalRef* s1, uint64_t count, Loc loc);
void vecCast(DType dt, DType st, const LocalRef& dst, const LocalRef& src, int roundMode, uint64_t count, Loc loc);
void vecReduce(ReduceOp op, DType t, const LocalRef& dst, const LocalRef& src, const LocalRef* tmp, uint64_t count,
               bool withIndex, Loc loc);
void vecWholeReduce(ReduceOp op, DType t, const LocalRef& dst, const LocalRef& src, uint64_t mask0, uint64_t mask1,
                    uint32_t repeat, uint32_t dstRep, uint32_t srcBlk, uint32_t srcRep, int order, bool blockWise,
                    bool maskCounter, Loc loc);
void vecCompare(DType t, const LocalRef& dstMask, const LocalRef& s0, const LocalRef* s1, double scalar, int cmpMode,
                uint64_t count, Loc loc);
void vecSelect(DType t, const LocalRef& dst, const LocalRef& mask, const LocalRef& s0, const LocalRef* s1,
               double scalar, int selMode, uint64_t count, Loc loc);
// dst[i] = op(operands[0][i], operands[1][i], operands[2][i]) for `count` elements, each operand a
// tensor or a scalar, computed in double and rounded once to dst's type `dt`; `beta` is Swish's
// and SwiGLU's factor. One composite instruction sequence on PIPE_V.
void vecLibrary(LibOp op, DType dt, const LocalRef& dst, const LibOperand* operands, int operandCount, double beta,
                uint64_t count, Loc loc);
// dst[i] = src[i] * scalar + dst[i] (Axpy; dst may be wider than src: half -> float).
void vecAxpy(DType dt, DType st, const LocalRef& dst, const LocalRef& src, double scalar, uint64_t count, Loc loc);
// dst[i] = the element at byte offset base + offsets[i] of src (Gather; offsets are uint32 bytes).
void vecGather(DType t, const LocalRef& dst, const LocalRef& src, const LocalRef& offsets, uint32_t base,
               uint64_t count, Loc loc);
// GatherMask: the elements of src whose pattern bit is set, packed into dst; returns how many.
// `pattern` is a bit tensor, or null for the built-in pattern `builtin` (1..7). In counter mode
// `mask` is the element count; otherwise `repeat` repeats of 256 bytes are read.
uint64_t vecGatherMask(DType t, const LocalRef& dst, const LocalRef& src, const LocalRef* pattern, uint8_t builtin,
                       bool counter, uint32_t mask, uint32_t repeat, uint16_t srcBlk, uint16_t srcRep,
                       uint16_t patternRep, Loc loc);
// dst[i] = first + i * step (ArithProgression, CreateVecIndex).
// Sort32: `repeat` groups of 32 scores (t) with uint32 indices to 8-byte (score, index) entries,
// largest score first.
void vecSort32(DType t, const LocalRef& dst, const LocalRef& scores, const LocalRef& indices, int32_t repeat, Loc loc);
void vecIndexFill(DType t, const LocalRef& dst, double first, double step, uint64_t count, Loc loc);
// dst (rows x cols) from src: a row of `cols` repeated (axis 0) or a column of `rows` spread
// along each row (axis 1) (BroadCast).
void vecBroadcast(DType t, const LocalRef& dst, const LocalRef& src, uint32_t rows, uint32_t cols, int axis, Loc loc);
// For each of `outer` rows of `inner` elements, the sum (or mean) of the first n, into dst[row]
// (Sum, Mean). Accumulates in float.
void vecRowReduce(DType t, const LocalRef& dst, const LocalRef& src, uint32_t outer, uint32_t inner, uint32_t n,
                  bool mean, Loc loc);
// PairReduceSum in repeat form: per repeat, adjacent pairs of the masked elements summed
// (dst element k of a repeat = src 2k + src 2k+1); dst repeats are f.dstRep * 128 bytes apart.
void vecPairSum(DType t, const LocalRef& dst, const LocalRef& src, const RepeatForm& f, bool maskCounter, Loc loc);
// Register-level vector API (kernel_vec_reg.h): a vector-register load of `bytes` from UB into
// `out`, a store of the `lanes` elements of `es` bytes whose `laneOn` is set (each address
// checked for `align`), and one register instruction's issue on PIPE_V (cost as the vector op
// `op` on one repeat of type `t`).
void regLoad(const LocalRef& src, void* out, uint32_t bytes, uint32_t align, const char* api, Loc loc);
void regStore(const LocalRef& dst, const void* in, const bool* laneOn, uint32_t es, uint32_t lanes, uint32_t align,
              const char* api, Loc loc);
void regIssue(const char* api, VecOp op, DType t, Loc loc);
// Register gather/scatter: lane i (where `on[i]`) moves `es` bytes at byte offset `offsets[i]`
// from (to) UB at `base`; one instruction on PIPE_V.
void regGather(const LocalRef& base, void* out, const uint32_t* offsets, const bool* on, uint32_t es, uint32_t n,
               const char* api, Loc loc);
void regScatter(const LocalRef& base, const void* in, const uint32_t* offsets, const bool* on, uint32_t es, uint32_t n,
                const char* api, Loc loc);
// One register Cast of `count` elements (the vector Cast's conversion; `saturate` clamps
// integer results to the destination's range).
void regCast(DType dt, DType st, void* dst, const void* src, int roundMode, uint32_t count, bool saturate, Loc loc);
// Fills `count` elements of GM with `value` through MTE3 (InitGlobalMemory, InitOutput).
void fillGm(const GmRef& dst, uint64_t count, DType t, double value, Loc loc);
// TransDataTo5HD: per repeat, the 16 source blocks read as a matrix (16-bit: 16 x 16, 32-bit:
// 16 x 8, 8-bit: 16 x 16 from one half of each block) and written transposed to the 16
// destination blocks (32-bit: column j fills blocks 2j and 2j+1; 8-bit: one half of each).
void transData5HD(DType t, const LocalRef* dst, const LocalRef* src, bool dstHigh, bool srcHigh, uint32_t repeat,
                  uint32_t dstRep, uint32_t srcRep, Loc loc);
// The reduction result registers (GetAccVal, GetReduceMaxMinCount): the raw bits of the last
// count-form ReduceSum (accumulator) or of the last max/min value, its index into *index. The
// scalar unit waits for the producing instruction, as for a scalar read of local memory.
uint64_t readReduceRegister(bool accumulator, uint64_t* index, Loc loc);
// Brcb: per repeat, 8 consecutive elements of src each fill one 32-byte block of dst; blocks are
// dstBlk blocks apart inside a repeat and repeats dstRep blocks apart.
void vecBrcb(DType t, const LocalRef& dst, const LocalRef& src, uint32_t repeat, uint16_t dstBlk, uint16_t dstRep,
             Loc loc);
// ReduceSum/Max/Min in the mask + repeat form: every masked element of `repeat` repeats (srcRep
// blocks apart) reduced to dst[0], dst[1] = its index when withIndex. Sums add by a binary tree
// inside each repeat and again across the repeat results.
void vecReduceRepeat(ReduceOp op, DType t, const LocalRef& dst, const LocalRef& src, const LocalRef* tmp,
                     uint64_t mask0, uint64_t mask1, uint32_t repeat, uint32_t srcRep, bool withIndex, bool counter,
                     Loc loc);
// The mask + repeat forms of Compare, Select and Cast (`form` as for vecRepeat; the mask selects
// elements, strides count 32-byte blocks of each operand). Compare writes bit r * perRepeat + j of
// dstMask for element j of repeat r and leaves unselected bits alone; Select reads the same bit
// (mode 1/2) or bit j of every repeat (mode 0). Cast processes 256 / max(element sizes) elements
// per repeat.
void vecCompareRepeat(DType t, const LocalRef& dstMask, const LocalRef& s0, const LocalRef* s1, double scalar,
                      int cmpMode, const RepeatForm& form, bool maskCounter, Loc loc);
void vecSelectRepeat(DType t, const LocalRef& dst, const LocalRef& mask, const LocalRef& s0, const LocalRef* s1,
                     double scalar, int selMode, const RepeatForm& form, bool maskCounter, Loc loc);
void vecCastRepeat(DType dt, DType st, const LocalRef& dst, const LocalRef& src, int roundMode, const RepeatForm& form,
                   bool maskCounter, Loc loc);
// ScalarCast: one value converted on the scalar unit with Cast's rounding rules; the result's
// raw bits (dt's width) are returned.
uint64_t scalarCast(DType dt, DType st, const void* value, int roundMode, Loc loc);
// The dequantisation scale Cast applies from int32 to half (SetDeqScale); 1 by default.
void setDeqScale(float scale);
void setMaskCounter(bool counter);
bool maskCounter();
void setVectorMask(uint64_t hi, uint64_t lo);
void vectorMask(uint64_t out[2]);

// --- cube ----------------------------------------------------------------------------
struct Nd2Nz {
    uint16_t ndNum, nValue, dValue, srcNdMatrixStride, srcDValue, dstNzC0Stride, dstNzNStride, dstNzMatrixStride;
};
void copyNd2Nz(const LocalRef& dst, const GmRef& src, const Nd2Nz& p, DType t, Loc loc);
struct Load2D {
    uint16_t startIndex;
    uint8_t repeatTimes;
    uint16_t srcStride;
    uint16_t dstGap;
    bool transpose;
};
void loadData2D(const LocalRef& dst, const LocalRef& src, const Load2D& p, DType t, Loc loc);
struct MmadShape {
    uint16_t m, n, k;
    bool initC;
    bool biasFromC2 = false;
};
void mmad(const LocalRef& c, const LocalRef& a, const LocalRef& b, const LocalRef* bias, const MmadShape& p,
          DType ct, DType at, Loc loc);
struct FixpipeShape {
    uint16_t nSize, mSize;
    uint32_t srcStride, dstStride;
    int quant;  // 0 none, 1 f32->f16, 2 f32->bf16
    bool relu;
    bool nz2nd = true;
};
void fixpipe(const GmRef& dst, const LocalRef& src, const FixpipeShape& p, DType dt, DType st, Loc loc);

// --- high-level Matmul (lib/matmul_intf.h) ---------------------------------------------
// One operand of a Matmul as the library reads it: from GM or a local tensor, ND (row-major,
// `ld` elements per row) or NZ (the L1 layout above, `ld` = rows of the stored matrix, aligned
// to 16), stored transposed or not.
struct MatmulOperand {
    GmRef gm;
    LocalRef local;
    bool isLocal = false;
    bool nz = false;
    bool trans = false;
    uint64_t ld = 0;
};
// One base block of C: C[m0.., n0..] (mSize x nSize) = A[m0.., 0..kSize] x B[0..kSize, n0..]
// (+ bias[n0..]), written to `dstGm` (row stride ldc, at the block's position unless
// `sequential`) or to `dstLocal` (ND with row stride ldc, or NZ).
struct MatmulBlock {
    MatmulOperand a, b;
    DType abType = DType::F16;
    bool hasBias = false;
    MatmulOperand bias;  // a row of N elements
    DType biasType = DType::F32;
    GmRef dstGm;
    LocalRef dstLocal;
    bool dstIsLocal = false;
    bool dstNz = false;
    bool sequential = false;
    uint64_t ldc = 0;
    DType cType = DType::F32;
    uint32_t m0 = 0, n0 = 0, mSize = 0, nSize = 0, kSize = 0;
    uint8_t atomic = 0;       // 1: add into C
    bool quant = false;       // multiply by quantScale on the way out (int32 -> half)
    float quantScale = 1.0f;
    const uint64_t* quantVector = nullptr;  // per-column scales (float bits in the low word)
};
// Loads, multiplies and writes one block on MTE2 -> MTE1 -> M -> FIX, each stage after the
// previous one, and returns when the result is visible (the library's calls are synchronous).
void matmulBlock(const MatmulBlock& blk, Loc loc);

// --- synchronisation -----------------------------------------------------------------
void setFlag(PipeId src, PipeId dst, int eventId, Loc loc);
void waitFlag(PipeId src, PipeId dst, int eventId, Loc loc);
void pipeBarrier(PipeId pipe, Loc loc);
void syncAll(Loc loc);
void crossCoreSync(Loc loc);  // reports `unsupported`: no cube/vector core pairs are simulated

} // namespace rt
} // namespace sage::npu
