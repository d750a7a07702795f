// What the agent asks the memory (RetrievalContext), how answers are scored (ScoreWeights) and
// what comes back (ScoredExperience: the entry, its score and every part of the score).
//
// score = w_sim · similarity + w_q · (Q + 1) / 2 + pin_bonus · pinned − trial_penalty · on_trial
// similarity = (1 − trigger_share) · text + trigger_share · trigger_match
//   text          = BM25 relevance / best relevance among the candidates, in [0, 1]
//   trigger_match = matched / set fields of the entry's trigger (category, diagnostic, bottleneck)
//   Q             = the entry's learned value for the context's stage, in [−1, 1]
// Under MemoryMode::Similarity w_q is taken as 0. docs/memory.md works an example through.
// BM25 runs over the context's words (see ScoreWeights::postingBudget for large memories).
#pragma once

#include "sage_memory/Experience.h"
#include "sage_memory/MemoryMode.h"
#include "sage_memory/ValueModel.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sage::memory {

struct Diagnostic {
    std::string kind;     // capacity_exceeded, race_raw, compile_error, ...
    std::string message;  // the text shown to the engineer
};

struct ScoreWeights {
    double similarity = 0.5;    // w_sim
    double value = 0.5;         // w_q
    double triggerShare = 0.5;  // share of trigger_match inside similarity
    double pinBonus = 0.2;      // added for pinned entries
    double trialPenalty = ValueModel::kTrialScorePenalty;  // subtracted for entries on trial
    int poolFactor = 10;        // λ: the candidate pool is λ·limit entries from each source
    // Cost bound of the BM25 search on a large memory: query words are kept rarest first while the
    // entries containing them add up to at most this many; words found in more entries than that
    // (the stop words of this memory) are left out. Below this many entries nothing is left out.
    int postingBudget = 2000;
};

struct RetrievalContext {
    Stage stage = Stage::Draft;  // draft, repair or optimize (not any)
    std::string category;        // op category of the task (also filters Experience::appliesTo)
    std::string device;          // device profile id; entries whose appliesTo lists other devices are left out
    std::string description;     // task prose, current error text, anything worth matching
    std::vector<Diagnostic> diagnostics;
    std::string bottleneck;      // bottleneck class from the profile
    bool includePending = false; // approved (and trial) entries only unless set
    bool includeTrial = true;    // agent-learned lessons on trial, at ScoreWeights::trialPenalty
    int limit = 5;               // N
    double epsilon = 0.0;        // ε-greedy: chance that a slot is filled by a random pool entry
    std::uint64_t seed = 0;      // seeds std::mt19937_64: the same seed gives the same picks
    MemoryMode mode = kDefaultMemoryMode;
    ScoreWeights weights;
};

struct ScoredExperience {
    Experience experience;
    int rank = 0;                 // 1-based, in the order returned
    double score = 0.0;
    double similarity = 0.0;      // blended similarity in [0, 1]
    double textSimilarity = 0.0;  // normalised BM25 in [0, 1]
    double triggerMatch = 0.0;    // in [0, 1]
    double q = 0.0;               // learned value for the stage
    bool explored = false;        // picked by ε-greedy exploration, not by score
};

} // namespace sage::memory
