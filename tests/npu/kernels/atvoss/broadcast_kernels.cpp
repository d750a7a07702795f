// Kernels for test_npu_api_atvoss: operators written with the atvoss broadcast schedule.
// Written for the test.
#include "kernel_operator.h"
#include "atvoss/broadcast/broadcast_sch.h"
#include "atvoss/util/dag.h"

using namespace AscendC;
using namespace Ops::Base;

// y = x0 * x1 - x0, both inputs broadcast to the output shape.
template <class T> struct MulSubDag {
    using X0 = Bind<Vec::CopyInBrc<T>, Placeholder::In0<T>>;
    using X1 = Bind<Vec::CopyInBrc<T>, Placeholder::In1<T>>;
    using Prod = Bind<Vec::Mul<T>, X0, X1>;
    using Diff = Bind<Vec::Sub<T>, Prod, X0>;
    using Out = Bind<Vec::CopyOut<T>, Placeholder::Out0<T>, Diff>;
    using OpDag = DAGSch<Elems<Out>, void, MemOptCfg<MemLevel::LEVEL_2>>;
};

template <class T>
__global__ __aicore__ void atvoss_brc_mul_sub(GM_ADDR x0, GM_ADDR x1, GM_ADDR y, GM_ADDR tiling)
{
    BroadcastSch<0UL, typename MulSubDag<T>::OpDag> sch(tiling);
    sch.Process(x0, x1, y);
}

// y = max(x, lo) * s: lo a run-time Var, s a one-element GM input read as a scalar.
struct ClampScaleDag {
    using X = Bind<Vec::CopyInBrc<float>, Placeholder::In0<float>>;
    using Lo = Bind<Vec::Maxs<float>, X, Placeholder::Var<float, 0>>;
    using Y = Bind<Vec::Muls<float>, Lo, Placeholder::In1<float, Placeholder::ScalarAttr<true>>>;
    using Out = Bind<Vec::CopyOut<float>, Placeholder::Out0<float>, Y>;
    using OpDag = DAGSch<Elems<Out>>;
};

__global__ __aicore__ void atvoss_brc_clamp_scale(GM_ADDR x, GM_ADDR s, GM_ADDR y, GM_ADDR tiling, float lo)
{
    BroadcastSch<0UL, ClampScaleDag::OpDag> sch(tiling);
    sch.SetVar<float, 0>(lo);
    sch.Process(x, s, y);
}
