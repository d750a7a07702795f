#include "draft/Skeletons.h"
namespace sage::agent::draft {
SkeletonCode composeMatmul(Frame&) { throw DraftError("field 'compute.kind': matmul is not drafted yet"); }
}
