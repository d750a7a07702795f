// Test fixture written here: the op definition through a family macro (not Input(...) calls).
#include "fam_proto.h"
namespace ops {
FAM_OPDEF(Neg, ge::DT_FLOAT, ge::DT_FLOAT16)
}
