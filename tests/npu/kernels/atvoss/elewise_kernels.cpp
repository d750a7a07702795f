// Kernels for test_npu_api_atvoss: operators written with the atvoss vector operator templates
// (DAG + elementwise schedule). Written for the test.
#include "kernel_operator.h"
#include "atvoss/elewise/elewise_sch.h"
#include "atvoss/util/dag.h"
#include "atvoss/util/placeholder.h"
#include "atvoss/util/vec.h"

using namespace AscendC;
using namespace Ops::Base;

// y = (x0 + x1) * alpha, computed in float for half inputs.
template <class T> struct AddScaleDag {
    using X0 = Bind<Vec::CopyIn<T>, Placeholder::In0<T>>;
    using X1 = Bind<Vec::CopyIn<T>, Placeholder::In1<T>>;
    using C0 = Bind<Vec::Cast<float, T, 0>, X0>;
    using C1 = Bind<Vec::Cast<float, T, 0>, X1>;
    using Sum = Bind<Vec::Add<float>, C0, C1>;
    using Scaled = Bind<Vec::Muls<float>, Sum, Placeholder::Var<float, 0>>;
    using Back = Bind<Vec::Cast<T, float, 1>, Scaled>;
    using Out = Bind<Vec::CopyOut<T>, Placeholder::Out0<T>, Back>;
    using OpDag = DAGSch<Elems<Out>, void, MemOptCfg<MemLevel::LEVEL_2>>;
};

struct AddScaleTiling {
    EleBaseTilingData baseTiling;
    float alpha;
};

template <class T>
__global__ __aicore__ void atvoss_add_scale(GM_ADDR x0, GM_ADDR x1, GM_ADDR y, AddScaleTiling tiling)
{
    TPipe pipe;
    ElementwiseSch<0UL, typename AddScaleDag<T>::OpDag> sch(&tiling.baseTiling, &pipe);
    sch.template SetVar<float, 0>(tiling.alpha);
    sch.Init(x0, x1, y);
    sch.Process();
}

// Two outputs from one input: y0 = |x| (vector unit), y1 = (x > 1) as a byte (scalar unit),
// with a constant and an integer output type.
struct AbsAndFlagDag {
    using X = Bind<Vec::CopyIn<float>, Placeholder::In0<float>>;
    using A = Bind<Vec::Abs<float>, X>;
    using Flag = Bind<Vec::Compare<uint8_t, float, 1>, X, MAKE_CONST(float, 1.0)>;
    using Out0 = Bind<Vec::CopyOut<float>, Placeholder::Out0<float>, A>;
    using Out1 = Bind<Vec::CopyOut<uint8_t>, Placeholder::Out1<uint8_t>, Flag>;
    using OpDag = DAGSch<Elems<Out0, Out1>>;
};

__global__ __aicore__ void atvoss_abs_flag(GM_ADDR x, GM_ADDR y0, GM_ADDR y1, EleBaseTilingData tiling)
{
    ElementwiseSch16B<0UL, AbsAndFlagDag::OpDag> sch(tiling);
    sch.Init(x, y0, y1);
    sch.Process();
}

// Rounding casts on the vector unit: y0 = floor(x) and y1 = ceil(x) as int32, y2 = (float)y0.
struct RoundingDag {
    using X = Bind<Vec::CopyIn<float>, Placeholder::In0<float>>;
    using Fl = Bind<Vec::Cast<int32_t, float, 2>, X>;
    using Ce = Bind<Vec::Cast<int32_t, float, 3>, X>;
    using Back = Bind<Vec::Cast<float, int32_t, 0>, Fl>;
    using Y0 = Bind<Vec::CopyOut<int32_t>, Placeholder::Out0<int32_t>, Fl>;
    using Y1 = Bind<Vec::CopyOut<int32_t>, Placeholder::Out1<int32_t>, Ce>;
    using Y2 = Bind<Vec::CopyOut<float>, Placeholder::Out2<float>, Back>;
    using OpDag = DAGSch<Elems<Y0, Y1, Y2>>;
};

__global__ __aicore__ void atvoss_rounding(GM_ADDR x, GM_ADDR y0, GM_ADDR y1, GM_ADDR y2, EleBaseTilingData tiling)
{
    ElementwiseSch<0UL, RoundingDag::OpDag> sch(tiling);
    sch.Init(x, y0, y1, y2);
    sch.Process();
}

// Leaky ReLU through a byte mask: m = (x > 0), y = m ? x : x * 0.125 (Compare and Select on the
// vector unit with the schedule's scratch).
template <class T> struct LeakyDag {
    using X = Bind<Vec::CopyIn<T>, Placeholder::In0<T>>;
    using Zero = Bind<Vec::Duplicate<T>, MAKE_CONST(T, 0.0)>;
    using M = Bind<Vec::Compare<uint8_t, T, 1>, X, Zero>;
    using Small = Bind<Vec::Muls<T>, X, MAKE_CONST(T, 0.125)>;
    using Y = Bind<Vec::Select<uint8_t, T, 2>, M, X, Small>;
    using Out = Bind<Vec::CopyOut<T>, Placeholder::Out0<T>, Y>;
    using MaskOut = Bind<Vec::CopyOut<uint8_t>, Placeholder::Out1<uint8_t>, M>;
    using OpDag = DAGSch<Elems<Out, MaskOut>>;
};

template <class T>
__global__ __aicore__ void atvoss_leaky(GM_ADDR x, GM_ADDR y, GM_ADDR m, EleBaseTilingData tiling)
{
    ElementwiseSch<0UL, typename LeakyDag<T>::OpDag> sch(tiling);
    sch.Init(x, y, m);
    sch.Process();
}
