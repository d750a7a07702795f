// Curation matters (issue 12): a lesson the agent proposed stays pending and out of retrieval;
// once an engineer approves it, the next retrieval returns it and the built-in policy's next move
// changes to the lesson's action, and the adoption of that move is evidenced by its constant edit.
#include "MemoryTestSupport.h"

#include "sage_agent/BuiltinPolicy.h"
#include "sage_memory/AdoptionLedger.h"

using namespace sage::memory;
using namespace sage::memory::test;
using nlohmann::json;

namespace {

const char* kKernel =
    "constexpr uint32_t TILE_LENGTH = 256;  // @tunable tile_length {128, 256, 512, 1024}\n"
    "constexpr int32_t BUFFER_NUM = 1;      // @tunable buffer_num {1, 2}\n"
    "constexpr uint32_t BLOCK_DIM = 1;      // @tunable block_dim {1, 2, 4, 8, 16, 48}\n";

} // namespace

class TestMemoryCuration : public QObject, ScratchDir {
    Q_OBJECT

    static RetrievalContext optimizeContext() {
        RetrievalContext ctx;
        ctx.stage = Stage::Optimize;
        ctx.category = "elementwise";
        ctx.bottleneck = "under_parallelized";
        ctx.description = "add two vectors";
        return ctx;
    }

    static sage::agent::PolicyProposal nextMove(ExperienceStore& store) {
        sage::agent::PolicyContext pc;
        pc.stage = Stage::Optimize;
        pc.parentSource = kKernel;
        pc.retrieved = store.retrieve(optimizeContext());
        sage::agent::BuiltinPolicy policy;
        return policy.propose(pc);
    }

private slots:
    void approvedLessonReachesRetrievalAndChangesTheNextMove() {
        ExperienceStore store(location("curation.db"));
        Experience tiles = entry("bigger-tiles", "Double the tile length under parallelised kernels.", Stage::Optimize,
                                 {"", "", "under_parallelized"});
        tiles.action = {{"type", "scale_tunable"}, {"name", "TILE_LENGTH"}, {"factor", 2}};
        const std::int64_t tilesId = store.add(tiles);
        // Before: the only applicable memory move doubles the tiles.
        auto before = nextMove(store);
        QVERIFY(before.ok);
        QCOMPARE(before.adoptedIds, std::vector<std::int64_t>{tilesId});
        QVERIFY(before.source.find("TILE_LENGTH = 512;") != std::string::npos);

        // The agent proposes a lesson: raise BLOCK_DIM to the core count. It is stored pending.
        Proposal p;
        p.experience = entry("under_parallelized: block_dim 1 -> 48",
                             "In task add (elementwise), with the profile saying under_parallelized, raising block_dim "
                             "to 48 made the kernel 30x faster.",
                             Stage::Optimize, {"elementwise", "", "under_parallelized"}, ExperienceStatus::Pending);
        p.experience.kind = ExperienceKind::Optimization;
        p.experience.origin = Origin::Agent;
        p.experience.action = {{"type", "set_tunable"}, {"name", "BLOCK_DIM"}, {"value", "max"}};
        p.stage = Stage::Optimize;
        p.reward = 0.9;
        const ProposalResult lesson = store.addProposed(p);
        QVERIFY(!lesson.deduplicated);
        QVERIFY(store.get(lesson.id).status == ExperienceStatus::Pending);
        // Pending: not retrieved, the next move is unchanged.
        for (const auto& s : store.retrieve(optimizeContext())) QVERIFY(s.experience.id != lesson.id);
        QCOMPARE(nextMove(store).source, before.source);

        // Approved: retrieved first (its trigger matches more of the context), and the move changes.
        QVERIFY(store.approve(lesson.id, {"reviewer", "checked the diff"}));
        const auto after = store.retrieve(optimizeContext());
        QVERIFY(!after.empty());
        QCOMPARE(after.front().experience.id, lesson.id);
        const auto move = nextMove(store);
        QVERIFY(move.ok);
        QCOMPARE(move.adoptedIds, std::vector<std::int64_t>{lesson.id});
        QVERIFY(move.source.find("BLOCK_DIM = 48;") != std::string::npos);
        // And its adoption is evidenced by that constant edit (weight 1.0), the other entry's is not.
        const auto adoption = AdoptionLedger::assess(after, move.adoptedIds, kKernel, move.source);
        for (const auto& s : adoption) {
            if (s.experienceId == lesson.id) QVERIFY(s.declared && s.evidenced);
            if (s.experienceId == tilesId) QVERIFY(!s.declared && !s.evidenced);
        }
    }
};

QTEST_GUILESS_MAIN(TestMemoryCuration)
#include "test_memory_curation.moc"
