// The platform card (docs/kernel-api.md) cut into pieces a prompt can pick from: the preamble,
// each `##` section's lead text and each of its `###` subsections. A piece is chosen by its
// heading, not its number, so sections appended later (at the end of the card) are still found:
// they are offered as optional pieces, included only when the budget leaves room.
#pragma once

#include "sage_memory/ExperienceFields.h"

#include <string>
#include <vector>

namespace sage::npu {
struct DeviceProfile;
}

namespace sage::agent::prompt {

enum class CardNeed {
    Core = 0,      // every prompt: programming model, memories, queues, data movement, vector API
    Task = 1,      // what this task's category, dtypes, stage or device need
    Optional = 2,  // useful background, when room remains
    Example = 3,   // complete example kernels, last
    Omit = 4,      // wrong for this device (e.g. DataCopyPad on the 310P)
};

struct CardPiece {
    std::string section;     // the `##` heading text (without the hashes), "" for the preamble
    std::string subsection;  // the `###` heading, "" for the section's lead text
    std::string text;        // markdown, headings included
    CardNeed need = CardNeed::Optional;
    size_t order = 0;        // position in the card
};

struct CardRequest {
    std::string category;               // task category (elementwise, reduction, matmul, ...)
    std::vector<std::string> dtypes;    // of the task's inputs and outputs
    memory::Stage stage = memory::Stage::Draft;
    const npu::DeviceProfile* device = nullptr;
};

// Cuts the card; headings inside fenced code are not headings.
std::vector<CardPiece> splitCard(const std::string& card);

// Sets each piece's need for the request.
void classify(std::vector<CardPiece>& pieces, const CardRequest& request);

} // namespace sage::agent::prompt
