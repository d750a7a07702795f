// The search frontier: every candidate the run evaluated, and which correct one the next
// optimisation extends. Rule (best-first): the engineer's latest correct edit while it is open,
// otherwise the correct candidate with the fewest cycles that the policy has not declared
// exhausted. When the policy has no further move from a node, that node is closed and the next
// one in cycle order is extended, so a run does not end at its first local optimum.
// It also remembers every evaluated source (by content key): no source is evaluated twice.
#pragma once

#include "sage_eval/Evaluation.h"

#include <map>
#include <string>
#include <vector>

namespace sage::agent {

struct Candidate {
    std::string source;
    std::string key;          // sourceKey(source)
    eval::Evaluation evaluation;
    bool correct = false;
    int iteration = 0;        // the iteration that evaluated it
    bool human = false;       // the engineer's edit while paused
    bool exhausted = false;   // the policy has no further move from it (or no repair for it)
    uint64_t cycles() const { return evaluation.profile.totalCycles; }
};

class Frontier {
public:
    int add(Candidate c);                    // returns its node index; becomes the latest node
    void revisit(int node) { latest_ = node; }  // a duplicate proposal resolved to this node
    const Candidate& node(int i) const { return nodes_[size_t(i)]; }
    int size() const { return int(nodes_.size()); }
    int latest() const { return latest_; }   // the node the last iteration resolved to, -1 before any
    int best() const { return best_; }       // fewest cycles among correct nodes, -1 when none
    int pick() const;                        // the node to optimise next, -1 when all are exhausted
    int open() const;                        // correct nodes not yet exhausted
    void close(int node) { nodes_[size_t(node)].exhausted = true; }
    int find(const std::string& key) const;  // node index of an evaluated source, -1 if new
    std::vector<std::string> keys() const;   // every evaluated source, in order

private:
    std::vector<Candidate> nodes_;
    std::map<std::string, int> byKey_;
    int latest_ = -1, best_ = -1;
    int focus_ = -1;  // the engineer's correct edit: extended until it is exhausted or beaten
};

} // namespace sage::agent
