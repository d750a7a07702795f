// Test fixture written here: the host launcher of add_kernel.cpp. It declares the kernel and
// drives it through the ACL runtime; it is host code, not a kernel.
#include "acl/acl.h"
#include <cstdint>

extern "C" __global__ __aicore__ void twice(GM_ADDR x, GM_ADDR y);
void twice_do(uint32_t blockDim, void* stream, uint8_t* x, uint8_t* y);

int main()
{
    aclInit(nullptr);
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    uint8_t* x = nullptr;
    aclrtMalloc((void**)&x, 256, ACL_MEM_MALLOC_HUGE_FIRST);
    twice_do(1, stream, x, x);
    aclrtSynchronizeStream(stream);
    aclFinalize();
    return 0;
}
