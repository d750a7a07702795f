// The high-level Matmul API (lib/matmul_intf.h): C = A x B (+ bias) for one core's share of a
// matrix multiplication, split into baseM x baseN blocks by the TCubeTiling the host computed.
// Each block runs on the cube unit's pipes (runtime: matmulBlock). Included only through
// lib/matmul_intf.h, as on the device, so that kernels without it keep the name Matmul free.
#pragma once

#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

// Configuration names are global in the device headers (kernels write GetNormalConfig() and
// CubeFormat::ND without a namespace); AscendC and matmul name the same entities.
enum class CubeFormat : uint8_t { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR, NDC1HWC0, NCDHW, FRACTALZ_3D,
                                  FRACTAL_Z_3D = FRACTALZ_3D, ROW_MAJOR = ND, COLUMN_MAJOR = NN };
enum class LayoutMode : uint8_t { NONE = 0, BSNGD, SBNGD, BNGS1S2, NORMAL };
enum class IterateOrder : uint8_t { ORDER_M = 0, ORDER_N, UNDEF };
enum class ScheduleType : uint8_t { INNER_PRODUCT = 0, OUTER_PRODUCT };
enum class MatmulConfigMode : uint8_t { CONFIG_NORM, CONFIG_MDL, CONFIG_SPECIALMDL, CONFIG_IBSHARE };

// How the library schedules its loads. The simulator runs every configuration the same way
// (functionally identical on the device too); the fields are kept so kernels can read them.
struct MatmulConfig {
    bool doNorm = true;
    bool doBasicBlock = false;
    bool doMultiDataLoad = false;
    uint32_t basicM = 0, basicN = 0, basicK = 0;
    bool intrinsicsCheck = false;
    bool isNBatch = false;
    bool enVecND2NZ = false;
    bool doSpecialBasicBlock = false;
    uint32_t doMTE2Preload = 0;
    uint32_t singleCoreM = 0, singleCoreN = 0, singleCoreK = 0;
    uint32_t stepM = 0, stepN = 0;
    uint32_t baseMN = 0, singleCoreMN = 0;
    bool enUnitFlag = true;
    bool isPerTensor = false;
    bool hasAntiQuantOffset = false;
    bool doIBShareNorm = false;
    bool doSpecialMDL = false;
    bool enableInit = true;
    bool enableUBReuse = true;
    bool enableL1CacheUB = false;
    bool enableSetOrgShape = true;
    bool enableEnd = true;
    bool enableGetTensorC = true;
    bool enableSetTail = true;
    bool enableQuantVector = true;
    bool enableSetDefineData = true;
    bool isBiasBatch = true;
    bool isA2B2Shared = false;
    bool isPartialOutput = false;
    bool enableMixDualMaster = false;
    bool isEnableChannelSplit = false;
    bool enableKdimReorderLoad = false;
    bool enableDoubleCache = false;
    bool enableStaticPadZeros = false;
    uint8_t iterateMode = 0;
    IterateOrder iterateOrder = IterateOrder::UNDEF;
    ScheduleType scheduleType = ScheduleType::INNER_PRODUCT;
};

constexpr MatmulConfig GetNormalConfig(bool intrinsicsLimit = false, bool batchLoop = false, bool isVecND2NZ = false,
                                       bool = false, bool = false, bool = false, bool = true, bool = true,
                                       bool = false) {
    MatmulConfig c;
    c.intrinsicsCheck = intrinsicsLimit;
    c.isNBatch = batchLoop;
    c.enVecND2NZ = isVecND2NZ;
    return c;
}
constexpr MatmulConfig GetMDLConfig(bool intrinsicsLimit = false, bool batchLoop = false, uint32_t doMTE2Preload = 0,
                                    bool isVecND2NZ = false, bool isPerTensor = false, bool hasAntiQuantOffset = false,
                                    bool enUnitFlag = false, bool = true, bool enableUBReuse = true,
                                    bool enableL1CacheUB = false) {
    MatmulConfig c;
    c.doNorm = false;
    c.doMultiDataLoad = true;
    c.intrinsicsCheck = intrinsicsLimit;
    c.isNBatch = batchLoop;
    c.doMTE2Preload = doMTE2Preload;
    c.enVecND2NZ = isVecND2NZ;
    c.isPerTensor = isPerTensor;
    c.hasAntiQuantOffset = hasAntiQuantOffset;
    c.enUnitFlag = enUnitFlag;
    c.enableUBReuse = enableUBReuse;
    c.enableL1CacheUB = enableL1CacheUB;
    return c;
}
constexpr MatmulConfig GetSpecialMDLConfig(bool intrinsicsLimit = false, bool batchLoop = false,
                                           uint32_t doMTE2Preload = 0, bool isVecND2NZ = false) {
    MatmulConfig c = GetMDLConfig(intrinsicsLimit, batchLoop, doMTE2Preload, isVecND2NZ);
    c.doSpecialMDL = true;
    return c;
}
constexpr MatmulConfig GetIBShareNormConfig(bool intrinsicsLimit = false, bool batchLoop = false,
                                            bool isVecND2NZ = false) {
    MatmulConfig c = GetNormalConfig(intrinsicsLimit, batchLoop, isVecND2NZ);
    c.doIBShareNorm = true;
    return c;
}
constexpr MatmulConfig CFG_NORM = GetNormalConfig();
constexpr MatmulConfig CFG_MDL = GetMDLConfig();
constexpr MatmulConfig MM_CFG_BB = GetNormalConfig();
constexpr MatmulConfig CFG_IBSHARE_NORM = GetIBShareNormConfig();

namespace matmul {
using namespace AscendC;

// An operand's description: where it lives, its layout, element type and whether it is stored
// transposed.
template <TPosition POSITION, CubeFormat FORMAT, typename TYPE, bool ISTRANS = false,
          LayoutMode LAYOUT = LayoutMode::NONE, bool IBSHARE = false>
struct MatmulType {
    constexpr static TPosition pos = POSITION;
    constexpr static CubeFormat format = FORMAT;
    using T = TYPE;
    constexpr static bool isTrans = ISTRANS;
    constexpr static LayoutMode layout = LAYOUT;
    constexpr static bool ibShare = IBSHARE;
};

// User callbacks that replace the library's copies; accepted, and the simulator's own copies run.
template <auto DataCopyOut = nullptr, auto CopyA1 = nullptr, auto CopyB1 = nullptr> struct MatmulCallBackFunc {};

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE, const MatmulConfig& MM_CFG = CFG_NORM,
          class MM_CB = MatmulCallBackFunc<>>
class Matmul {
    using SrcT = typename A_TYPE::T;
    using DstT = typename C_TYPE::T;
    using BiasT = typename BIAS_TYPE::T;
    static_assert(std::is_same_v<SrcT, typename B_TYPE::T>, "Matmul: A and B must have the same data type");

public:
    __aicore__ Matmul() = default;
    __aicore__ void Init(const TCubeTiling* tiling, TPipe* pipe = nullptr) {
        (void)pipe;
        if (tiling) tiling_ = *tiling;
        orgM_ = tiling_.M, orgN_ = tiling_.N, orgKa_ = tiling_.Ka, orgKb_ = tiling_.Kb;
        singleM_ = tiling_.singleCoreM, singleN_ = tiling_.singleCoreN, singleK_ = tiling_.singleCoreK;
        hasBias_ = false;
        Reset();
    }
    __aicore__ void SetOrgShape(int orgM, int orgN, int orgK) { SetOrgShape(orgM, orgN, orgK, orgK); }
    __aicore__ void SetOrgShape(int orgM, int orgN, int orgKa, int orgKb, int orgKc = 0) {
        (void)orgKc;
        orgM_ = orgM, orgN_ = orgN, orgKa_ = orgKa, orgKb_ = orgKb;
    }
    __aicore__ void SetSingleShape(int singleM, int singleN, int singleK) {
        singleM_ = singleM, singleN_ = singleN, singleK_ = singleK;
        Reset();
    }
    __aicore__ void SetTail(int tailM = -1, int tailN = -1, int tailK = -1) {
        if (tailM >= 0) singleM_ = tailM;
        if (tailN >= 0) singleN_ = tailN;
        if (tailK >= 0) singleK_ = tailK;
        Reset();
    }
    __aicore__ void SetTensorA(const GlobalTensor<SrcT>& gm, bool isTransposeA = false) {
        setOperand<A_TYPE>(a_, gm.ref(), isTransposeA);
    }
    __aicore__ void SetTensorA(const LocalTensor<SrcT>& local, bool isTransposeA = false) {
        setOperand<A_TYPE>(a_, local.ref(), isTransposeA);
    }
    __aicore__ void SetTensorB(const GlobalTensor<SrcT>& gm, bool isTransposeB = false) {
        setOperand<B_TYPE>(b_, gm.ref(), isTransposeB);
    }
    __aicore__ void SetTensorB(const LocalTensor<SrcT>& local, bool isTransposeB = false) {
        setOperand<B_TYPE>(b_, local.ref(), isTransposeB);
    }
    __aicore__ void SetBias(const GlobalTensor<BiasT>& gm) {
        bias_ = {};
        bias_.gm = gm.ref();
        hasBias_ = true;
    }
    __aicore__ void SetBias(const LocalTensor<BiasT>& local) {
        bias_ = {};
        bias_.local = local.ref();
        bias_.isLocal = true;
        hasBias_ = true;
    }
    __aicore__ void ClearBias() { hasBias_ = false; }
    __aicore__ void DisableBias() { hasBias_ = false; }
    // Dequantisation of an int32 result: one scale (float bits in the low word) or one per column.
    __aicore__ void SetQuantScalar(const uint64_t quantScalar) {
        uint32_t bits = uint32_t(quantScalar);
        std::memcpy(&quantScale_, &bits, 4);
        quant_ = true;
        quantVector_ = nullptr;
    }
    __aicore__ void SetQuantVector(const GlobalTensor<uint64_t>& quantTensor) {
        quantVector_ = quantTensor.GetPhyAddr();
        quant_ = true;
    }
    // Precision and scheduling hints with no functional effect in the simulator.
    __aicore__ void SetHF32(bool enableHF32 = false, int32_t transMode = 0) { (void)enableHF32, (void)transMode; }
    __aicore__ void SetSubBlockIdx(uint8_t idx) { (void)idx; }
    __aicore__ void SetLocalWorkspace(const LocalTensor<uint8_t>& tmp) { (void)tmp; }
    __aicore__ void SetWorkspace(GM_ADDR ws, int size = 0) { (void)ws, (void)size; }
    template <typename W> __aicore__ void SetWorkspace(const GlobalTensor<W>& ws) { (void)ws; }
    __aicore__ void SetUserDefInfo(uint64_t info) { (void)info; }
    __aicore__ void SetSelfDefineData(uint64_t data) { (void)data; }

    // Moves to the next base block of C; false once every block has been visited.
    template <bool sync = true> __aicore__ bool Iterate(bool enPartialSum = false) {
        (void)enPartialSum;
        if (mIter() == 0 || nIter() == 0) return false;
        if (!started_) {
            started_ = true;
            cur_ = 0;
        } else {
            ++cur_;
        }
        return cur_ < mIter() * nIter();
    }
    template <bool sync = true>
    __aicore__ void GetTensorC(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0, bool enSequentialWrite = false,
                               ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
        auto blk = Block(cur_, loc);
        blk.dstGm = gm.ref();
        blk.ldc = enSequentialWrite ? uint64_t(blk.nSize) : uint64_t(orgN_);
        blk.sequential = enSequentialWrite;
        blk.atomic = enAtomic;
        ::sage::npu::rt::matmulBlock(blk, loc);
    }
    template <bool sync = true>
    __aicore__ void GetTensorC(const LocalTensor<DstT>& local, uint8_t enAtomic = 0, bool enSequentialWrite = false,
                               ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
        (void)enAtomic, (void)enSequentialWrite;
        auto blk = Block(cur_, loc);
        blk.dstLocal = local.ref();
        blk.dstIsLocal = true;
        blk.dstNz = C_TYPE::format == CubeFormat::NZ;
        blk.ldc = uint64_t(BaseN());
        ::sage::npu::rt::matmulBlock(blk, loc);
    }
    // Every block of this core's C, written at its position (row stride = the original N).
    template <bool sync = true>
    __aicore__ void IterateAll(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0, bool enSequentialWrite = false,
                               bool waitIterateAll = false, bool fakeMsg = false,
                               ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
        (void)enSequentialWrite, (void)waitIterateAll, (void)fakeMsg;
        Reset();
        while (Iterate()) GetTensorC(gm, enAtomic, false, loc);
    }
    // Every block into a local tensor holding the whole singleM x singleN result (ND, row stride singleN).
    template <bool sync = true>
    __aicore__ void IterateAll(const LocalTensor<DstT>& local, uint8_t enAtomic = 0,
                               ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
        (void)enAtomic;
        Reset();
        while (Iterate()) {
            auto blk = Block(cur_, loc);
            blk.dstLocal = local.ref();
            blk.dstIsLocal = true;
            blk.ldc = uint64_t(singleN_);
            const uint64_t off = (uint64_t(blk.m0) * singleN_ + blk.n0) * sizeof(DstT);
            blk.dstLocal.addr += uint32_t(off);
            blk.dstLocal.bytes = blk.dstLocal.bytes > off ? blk.dstLocal.bytes - uint32_t(off) : 0;
            ::sage::npu::rt::matmulBlock(blk, loc);
        }
    }
    __aicore__ void WaitIterateAll() {}
    __aicore__ void WaitGetTensorC() {}
    __aicore__ void End() { Reset(); }

private:
    int BaseM() const { return tiling_.baseM > 0 ? tiling_.baseM : singleM_; }
    int BaseN() const { return tiling_.baseN > 0 ? tiling_.baseN : singleN_; }
    uint32_t mIter() const { return singleM_ <= 0 ? 0 : uint32_t((singleM_ + BaseM() - 1) / BaseM()); }
    uint32_t nIter() const { return singleN_ <= 0 ? 0 : uint32_t((singleN_ + BaseN() - 1) / BaseN()); }
    void Reset() {
        started_ = false;
        cur_ = 0;
    }
    // Block `index` in the tiling's iterate order (0: along M first, 1: along N first).
    ::sage::npu::rt::MatmulBlock Block(uint32_t index, ::sage::npu::Loc loc) const {
        (void)loc;
        ::sage::npu::rt::MatmulBlock blk;
        const bool mFirst = tiling_.iterateOrder == 0;
        const uint32_t mi = mFirst ? index % mIter() : index / nIter();
        const uint32_t ni = mFirst ? index / mIter() : index % nIter();
        blk.m0 = mi * uint32_t(BaseM());
        blk.n0 = ni * uint32_t(BaseN());
        blk.mSize = uint32_t(std::min(BaseM(), singleM_ - int(blk.m0)));
        blk.nSize = uint32_t(std::min(BaseN(), singleN_ - int(blk.n0)));
        blk.kSize = uint32_t(singleK_ < 0 ? 0 : singleK_);
        blk.a = a_;
        blk.b = b_;
        // Leading dimensions from the original shape: A is M x Ka (Ka x M transposed), B is Kb x N (N x Kb).
        blk.a.ld = a_.nz ? AlignedRows(a_.trans ? orgKa_ : orgM_) : uint64_t(a_.trans ? orgM_ : orgKa_);
        blk.b.ld = b_.nz ? AlignedRows(b_.trans ? orgN_ : orgKb_) : uint64_t(b_.trans ? orgKb_ : orgN_);
        blk.abType = ::sage::npu::dtypeOf<SrcT>;
        blk.hasBias = hasBias_;
        blk.bias = bias_;
        blk.biasType = ::sage::npu::dtypeOf<BiasT>;
        blk.cType = ::sage::npu::dtypeOf<DstT>;
        blk.quant = quant_;
        blk.quantScale = quantScale_;
        blk.quantVector = quantVector_;
        return blk;
    }
    static uint64_t AlignedRows(int rows) { return (uint64_t(rows < 0 ? 0 : rows) + 15) / 16 * 16; }

    TCubeTiling tiling_{};
    int orgM_ = 0, orgN_ = 0, orgKa_ = 0, orgKb_ = 0;
    int singleM_ = 0, singleN_ = 0, singleK_ = 0;
    // A or B from GM or from a local buffer; transposed when the call or the operand's MatmulType says so.
    template <typename Type, typename Ref>
    __aicore__ void setOperand(::sage::npu::rt::MatmulOperand& op, const Ref& ref, bool transpose) {
        op = {};
        if constexpr (std::is_same_v<Ref, ::sage::npu::LocalRef>) {
            op.local = ref;
            op.isLocal = true;
        } else {
            op.gm = ref;
        }
        op.trans = transpose || Type::isTrans;
        op.nz = Type::format == CubeFormat::NZ;
        Reset();
    }
    ::sage::npu::rt::MatmulOperand a_{}, b_{}, bias_{};
    bool hasBias_ = false;
    bool quant_ = false;
    float quantScale_ = 1.0f;
    const uint64_t* quantVector_ = nullptr;
    bool started_ = false;
    uint32_t cur_ = 0;
};

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE, const MatmulConfig& MM_CFG = CFG_NORM,
          class MM_CB = MatmulCallBackFunc<>>
using MatmulImpl = Matmul<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE, MM_CFG, MM_CB>;

} // namespace matmul

namespace AscendC {
namespace detail {
inline void registMatmulObjs() {}
template <typename MM, typename Tiling, typename... Rest>
inline void registMatmulObjs(TPipe* pipe, MM& mm, Tiling tiling, Rest&&... rest) {
    if constexpr (std::is_pointer_v<Tiling>) {
        if (tiling != nullptr) mm.Init(reinterpret_cast<const TCubeTiling*>(tiling), pipe);
    } else if constexpr (!std::is_null_pointer_v<Tiling>) {
        mm.Init(&tiling, pipe);
    }
    if constexpr (sizeof...(Rest) > 0) registMatmulObjs(pipe, std::forward<Rest>(rest)...);
}
template <typename MM> inline void registMatmulObjs(TPipe* pipe, MM& mm) { (void)pipe, (void)mm; }
} // namespace detail

} // namespace AscendC

// REGIST_MATMUL_OBJ(pipe, workspace, mm1, &tiling1[, mm2, &tiling2 ...]): binds each Matmul
// object to its tiling (the device also sets up the AIC/AIV message queue in the workspace).
#define REGIST_MATMUL_OBJ(tpipe, workspace, ...)                                                             \
    do {                                                                                                      \
        (void)(workspace);                                                                                    \
        ::AscendC::detail::registMatmulObjs(tpipe, __VA_ARGS__);                                              \
    } while (0)

// Code spells the library's names with AscendC::, matmul:: or none.
namespace AscendC {
using ::CubeFormat;
using ::GetMDLConfig;
using ::GetNormalConfig;
using ::IterateOrder;
using ::LayoutMode;
using ::MatmulConfig;
using ::ScheduleType;
using matmul::Matmul;
using matmul::MatmulCallBackFunc;
using matmul::MatmulImpl;
using matmul::MatmulType;
} // namespace AscendC
namespace matmul {
using ::CubeFormat;
using ::GetMDLConfig;
using ::GetNormalConfig;
using ::LayoutMode;
using ::MatmulConfig;
} // namespace matmul
