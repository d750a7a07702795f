// Kernels for test_npu_api_atvoss: operators written with the atvoss reduce schedule.
// Written for the test.
#include "kernel_operator.h"
#include "atvoss/reduce/reduce_sch.h"
#include "atvoss/util/dag.h"

using namespace AscendC;
using namespace Ops::Base;
using namespace Ops::Base::ReduceOpTmpl;

// Mean over the reduced axis, accumulated in the promoted type: cast, sum, times 1/n, cast back.
template <class T, class P> struct MeanDag {
    using X = Bind<Vec::CopyIn<T>, Placeholder::In0<T>>;
    using Up = Bind<Vec::Cast<P, T, 0>, X>;
    using Sum = Bind<Vec::ReduceSumOp<P>, Up>;
    using Scaled = Bind<Vec::Muls<P>, Sum, Placeholder::Var<P, 0>>;
    using Down = Bind<Vec::Cast<T, P, 1>, Scaled>;
    using Out = Bind<Vec::CopyOut<T>, Placeholder::Out0<T>, Down>;
    using OpDag = DAGSch<Elems<Out>, void, MemOptCfg<MemLevel::LEVEL_2>>;
};

// Largest |x| over the reduced axis.
template <class T> struct MaxAbsDag {
    using X = Bind<Vec::CopyIn<T>, Placeholder::In0<T>>;
    using A = Bind<Vec::Abs<T>, X>;
    using M = Bind<Vec::ReduceMaxOp<T>, A>;
    using Out = Bind<Vec::CopyOut<T>, Placeholder::Out0<T>, M>;
    using OpDag = DAGSch<Elems<Out>>;
};

// Product and largest element of every row: one output per fold, the product on the scalar unit.
struct ProdMaxDag {
    using X = Bind<Vec::CopyIn<float>, Placeholder::In0<float>>;
    using P = Bind<Vec::ReduceProdOp<float>, X>;
    using Out = Bind<Vec::CopyOut<float>, Placeholder::Out0<float>, P>;
    using OpDag = DAGSch<Elems<Out>>;
};
struct RowMaxDag {
    using X = Bind<Vec::CopyIn<int32_t>, Placeholder::In0<int32_t>>;
    using M = Bind<Vec::ReduceMaxOp<int32_t>, X>;
    using Out = Bind<Vec::CopyOut<int32_t>, Placeholder::Out0<int32_t>, M>;
    using OpDag = DAGSch<Elems<Out>>;
};

struct LogSumExpDag {
    using X = Bind<Vec::CopyIn<float>, Placeholder::In0<float>>;
    using L = Bind<Vec::ReduceLogSumExpOp<float>, X>;
    using Out = Bind<Vec::CopyOut<float>, Placeholder::Out0<float>, L>;
    using OpDag = DAGSch<Elems<Out>>;
};
__global__ __aicore__ void atvoss_reduce_lse(GM_ADDR x, GM_ADDR y, ReduceOpTilingData tiling)
{
    TPipe pipe;
    ReduceSch<0, 0, 0, LogSumExpDag::OpDag> op(&tiling);
    op.Init(&pipe, x, y);
    op.Process();
}

__global__ __aicore__ void atvoss_reduce_prod(GM_ADDR x, GM_ADDR y, ReduceOpTilingData tiling)
{
    TPipe pipe;
    ReduceSch<0, 0, 0, ProdMaxDag::OpDag> op(&tiling);
    op.Init(&pipe, x, y);
    op.Process();
}
__global__ __aicore__ void atvoss_reduce_row_max(GM_ADDR x, GM_ADDR y, ReduceOpTilingData tiling)
{
    TPipe pipe;
    ReduceSch<0, 0, 0, RowMaxDag::OpDag> op(&tiling);
    op.Init(&pipe, x, y);
    op.Process();
}

template <uint32_t PatternID, uint32_t LoopARCount, uint32_t LoopInnerARCount, class T>
__global__ __aicore__ void atvoss_reduce_mean(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, ReduceOpTilingData tiling)
{
    TPipe pipe;
    using P = typename __reduceType::GetPromoteType<T>::T;
    ReduceSch<REDUCE_TPL_VALUE, typename MeanDag<T, P>::OpDag> op(&tiling);
    op.template SetVar<P, 0>(tiling.meanVar);
    op.Init(&pipe, x, y, workspace);
    op.Process(T(-1));
}

__global__ __aicore__ void atvoss_reduce_max_abs(GM_ADDR x, GM_ADDR y, ReduceOpTilingData tiling)
{
    TPipe pipe;
    ReduceSch<0, 0, 0, MaxAbsDag<float>::OpDag> op(&tiling);
    op.Init(&pipe, x, y);
    op.Process();
}
