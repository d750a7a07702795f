#include "draft/Skeletons.h"
namespace sage::agent::draft {
SkeletonCode composeReduceAll(Frame&) { throw DraftError("field 'compute.kind': reduce_all is not drafted yet"); }
}
