// Test fixture written for SAGE: a second host source with a file-local name scale_pair_tiling.cpp
// defines too (INPUT_X): it compiles as its own translation unit, as in CANN's build.
#include "register/op_impl_registry.h"

namespace optiling {
static const uint32_t INPUT_X = 0;
// -1 when flags[0] is set (a ListBool attribute, read as bools).
float SignOf(const gert::TilingContext* context) {
    const auto* flags = context->GetAttrs()->GetAttrPointer<gert::ContinuousVector>(1);
    const bool* values = static_cast<const bool*>(flags->GetData());
    return context->GetInputShape(INPUT_X) != nullptr && values[0] ? -1.0f : 1.0f;
}
} // namespace optiling
