// Test fixture written here: calls an API the simulator does not have.
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void missing(GM_ADDR x)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 256);
    LocalTensor<float> l = b.Get<float>();
    NotAnAscendApi(l, l, 64);
}
