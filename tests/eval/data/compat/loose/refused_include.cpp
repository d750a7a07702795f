// Test fixture written here: includes a library header the simulator does not implement.
#include "kernel_operator.h"
#include "lib/not_shipped/thing_intf.h"
extern "C" __global__ __aicore__ void refused(GM_ADDR x) {}
