#include "draft/Skeletons.h"
namespace sage::agent::draft {
SkeletonCode composeRowwise(Frame&) { throw DraftError("field 'compute.kind': rowwise is not drafted yet"); }
}
