#include "sage_memory/MemoryMode.h"

namespace sage::memory {

double creditWeight(MemoryMode mode, double adoptionWeight) {
    switch (mode) {
    case MemoryMode::AllRetrieved: return 1.0;
    case MemoryMode::Adoption: return adoptionWeight;
    case MemoryMode::Off:
    case MemoryMode::Similarity: return 0.0;
    }
    return 0.0;
}

} // namespace sage::memory
