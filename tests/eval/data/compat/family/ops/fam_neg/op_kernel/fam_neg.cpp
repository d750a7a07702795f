// Test fixture written here: an op of the family; its tiling class is the family's.
#include "fam_unary.h"
extern "C" __global__ __aicore__ void fam_neg(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    GET_TILING_DATA(t, tiling);
    static_assert(FAM_MAX_PARTS == 4, "the family header's constants are visible");
    FamScale<DTYPE_X>(x, y, t.totalLength + t.partLength[0] * 0);
}
