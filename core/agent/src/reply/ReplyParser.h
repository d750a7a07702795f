// The tolerant reader of a model's reply (see LlmPolicy::parseReply for the contract it checks).
#pragma once

#include "sage_agent/LlmPolicy.h"

namespace sage::agent::reply {

// Drops reasoning: everything up to the last `</think>` (paired `<think>` or a lone closing tag,
// as several servers return it). An unclosed `<think>` is left in place.
std::string stripThinking(std::string text);

// Reads `reply`; edits (SEARCH/REPLACE or a unified diff) are applied to `parent`.
LlmPolicy::ParsedReply parse(const std::string& reply, const std::string& parent);

} // namespace sage::agent::reply
