// The simulator's stand-in for the CANN host header tiling/tiling_api.h: the tiling structs of
// the library APIs (kernel_tiling/kernel_tiling.h) and a Matmul tiling helper
// (matmul_tiling::MatmulApiTiling / MultiCoreMatmulTiling) that fills a TCubeTiling the
// simulator's Matmul runs: the whole single-core shape split into base blocks of at most
// 128 x 256 (M x N), K whole.
#pragma once

#include "register/tilingdata_base.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace matmul_tiling {

enum class DataType : int32_t { DT_FLOAT = 0, DT_FLOAT16 = 1, DT_INT8 = 2, DT_INT32 = 3, DT_UINT8 = 4, DT_INT16 = 6,
                                DT_BF16 = 27, DT_INT4 = 29 };
enum class TPosition : int32_t { GM, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC, TSCM };
enum class CubeFormat : int32_t { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR };
enum class MatrixTraverse : int32_t { NOSET = 0, FIRSTM, FIRSTN };
enum class MatrixMadType : int32_t { NORMAL = 0, HF32 };

struct PlatformInfo {
    int32_t socVersion = 0;
    uint64_t l1Size = 524288, l0CSize = 131072, ubSize = 196352, l0ASize = 65536, l0BSize = 65536;
};

class MatmulApiTilingBase {
public:
    virtual ~MatmulApiTilingBase() = default;
    int32_t SetAType(TPosition, CubeFormat, DataType t, bool trans = false) { aTrans_ = trans, (void)t; return 0; }
    int32_t SetBType(TPosition, CubeFormat, DataType, bool trans = false) { bTrans_ = trans; return 0; }
    int32_t SetCType(TPosition, CubeFormat, DataType) { return 0; }
    int32_t SetBiasType(TPosition, CubeFormat, DataType) { return 0; }
    int32_t SetShape(int32_t m, int32_t n, int32_t k) {
        m_ = m, n_ = n, k_ = k;
        if (orgM_ == 0) orgM_ = m, orgN_ = n, orgKa_ = k, orgKb_ = k;
        return 0;
    }
    int32_t SetSingleShape(int32_t m = -1, int32_t n = -1, int32_t k = -1) {
        singleM_ = m, singleN_ = n, singleK_ = k;
        return 0;
    }
    int32_t SetOrgShape(int32_t m, int32_t n, int32_t k) { return SetOrgShape(m, n, k, k); }
    int32_t SetOrgShape(int32_t m, int32_t n, int32_t ka, int32_t kb) {
        orgM_ = m, orgN_ = n, orgKa_ = ka, orgKb_ = kb;
        return 0;
    }
    int32_t SetBias(bool bias = false) { bias_ = bias; return 0; }
    int32_t EnableBias(bool bias = false) { return SetBias(bias); }
    int32_t SetBufferSpace(int32_t = -1, int32_t = -1, int32_t = -1, int32_t = -1) { return 0; }
    int32_t SetFixSplit(int32_t baseM = -1, int32_t baseN = -1, int32_t baseK = -1) {
        fixM_ = baseM, fixN_ = baseN, fixK_ = baseK;
        return 0;
    }
    int32_t SetTraverse(MatrixTraverse t) { order_ = t == MatrixTraverse::FIRSTN ? 1 : 0; return 0; }
    int32_t SetMadType(MatrixMadType) { return 0; }
    int32_t SetDim(int32_t dim) { dim_ = std::max(1, dim); return 0; }
    int32_t SetSplitRange(int32_t = -1, int32_t = -1, int32_t = -1, int32_t = -1, int32_t = -1, int32_t = -1) { return 0; }
    // Fills `t` (a TCubeTiling or a host tiling struct with the same field names); -1 when the
    // shape was never set.
    template <typename Tiling> int64_t GetTiling(Tiling& t) {
        if (m_ <= 0 || n_ <= 0 || k_ <= 0) return -1;
        const int32_t sm = singleM_ > 0 ? singleM_ : coreShare(m_, true);
        const int32_t sn = singleN_ > 0 ? singleN_ : coreShare(n_, false);
        const int32_t sk = singleK_ > 0 ? singleK_ : k_;
        const int32_t bm = fixM_ > 0 ? fixM_ : std::min(128, align16(sm));
        const int32_t bn = fixN_ > 0 ? fixN_ : std::min(256, align16(sn));
        const int32_t bk = fixK_ > 0 ? fixK_ : std::min(64, align16(sk));
        set(t, (m_ + sm - 1) / sm * ((n_ + sn - 1) / sn), sm, sn, sk, bm, bn, bk);
        return 0;
    }

protected:
    static int32_t align16(int32_t v) { return (v + 15) / 16 * 16; }
    int32_t coreShare(int32_t total, bool splitM) const {
        if (dim_ <= 1 || !splitM) return total;
        return align16((total + dim_ - 1) / dim_);
    }
    template <typename Tiling>
    void set(Tiling& t, int32_t used, int32_t sm, int32_t sn, int32_t sk, int32_t bm, int32_t bn, int32_t bk) const {
        t.usedCoreNum = used;
        t.M = orgM_, t.N = orgN_, t.Ka = orgKa_, t.Kb = orgKb_;
        t.singleCoreM = sm, t.singleCoreN = sn, t.singleCoreK = sk;
        t.baseM = bm, t.baseN = bn, t.baseK = bk;
        t.depthA1 = 1, t.depthB1 = 1, t.stepM = 1, t.stepN = 1, t.stepKa = 1, t.stepKb = 1;
        t.isBias = bias_ ? 1 : 0;
        t.iterateOrder = order_;
    }
    int32_t m_ = 0, n_ = 0, k_ = 0, orgM_ = 0, orgN_ = 0, orgKa_ = 0, orgKb_ = 0;
    int32_t singleM_ = -1, singleN_ = -1, singleK_ = -1, fixM_ = -1, fixN_ = -1, fixK_ = -1;
    int32_t dim_ = 1, order_ = 0;
    bool bias_ = false, aTrans_ = false, bTrans_ = false;
};

class MatmulApiTiling : public MatmulApiTilingBase {
public:
    MatmulApiTiling() = default;
    template <typename P> explicit MatmulApiTiling(const P&) {}
};
class MultiCoreMatmulTiling : public MatmulApiTilingBase {
public:
    MultiCoreMatmulTiling() = default;
    template <typename P> explicit MultiCoreMatmulTiling(const P&) {}
};
using BatchMatmulTiling = MultiCoreMatmulTiling;

} // namespace matmul_tiling

namespace optiling {
// The Matmul API's host tiling class as a host program declares it (`optiling::TCubeTiling t;
// api.GetTiling(t); t.SaveToBuffer(buf, t.GetDataSize());`): the kernel-side TCubeTiling fields,
// which GetTiling fills, and the tiling-data methods that copy them out byte for byte.
struct TCubeTiling : ::TCubeTiling {
    size_t GetDataSize() const { return sizeof(::TCubeTiling); }
    void SaveToBuffer(void* buffer, size_t capacity) const {
        if (buffer) std::memcpy(buffer, static_cast<const ::TCubeTiling*>(this), std::min(capacity, GetDataSize()));
    }
};
} // namespace optiling
