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
