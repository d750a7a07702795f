#include "sage_agent/RunStore.h"

#include "sage_memory/AdoptionLedger.h"
#include "sage_toolchain/StaleWorkDirs.h"

#include <unistd.h>

namespace sage::agent {
using nlohmann::json;

memory::SchemaModule AgentSchema::module() {
    return {"agent",
            {{1, "agent runs and iterations", R"SQL(
CREATE TABLE agent_run (
  id INTEGER PRIMARY KEY,
  task TEXT NOT NULL, device TEXT NOT NULL, policy TEXT NOT NULL, memory_mode TEXT NOT NULL,
  status TEXT NOT NULL, settings TEXT NOT NULL,
  started_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')), finished_at TEXT,
  best_iteration INTEGER NOT NULL DEFAULT -1, first_correct_iteration INTEGER NOT NULL DEFAULT -1,
  stop_reason TEXT NOT NULL DEFAULT '');
CREATE INDEX agent_run_task ON agent_run(task);
CREATE TABLE agent_iteration (
  run_id INTEGER NOT NULL REFERENCES agent_run(id) ON DELETE CASCADE,
  idx INTEGER NOT NULL, parent INTEGER NOT NULL, stage TEXT NOT NULL, origin TEXT NOT NULL, move TEXT NOT NULL,
  source TEXT NOT NULL, diff TEXT NOT NULL, evaluation TEXT NOT NULL, status TEXT NOT NULL,
  correct INTEGER NOT NULL, cycles INTEGER NOT NULL, roofline REAL NOT NULL, reward REAL NOT NULL,
  retrievals TEXT NOT NULL, adoptions TEXT NOT NULL, proposed TEXT NOT NULL,
  prompt TEXT NOT NULL, response TEXT NOT NULL, rationale TEXT NOT NULL, error TEXT NOT NULL,
  timings TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
  PRIMARY KEY (run_id, idx));
)SQL"},
             {2, "owner process of a run (interrupted runs), duplicate iterations", R"SQL(
ALTER TABLE agent_run ADD COLUMN owner_pid INTEGER NOT NULL DEFAULT 0;
ALTER TABLE agent_iteration ADD COLUMN duplicate_of INTEGER NOT NULL DEFAULT -1;
)SQL"},
             {3, "the policy's notes per iteration (e.g. adopted ids that were never shown)", R"SQL(
ALTER TABLE agent_iteration ADD COLUMN notes TEXT NOT NULL DEFAULT '[]';
)SQL"}}};
}

RunStore::RunStore(std::shared_ptr<memory::Database> db) : db_(std::move(db)) {
    db_->migrate(AgentSchema::module());
    interrupted_ = markInterruptedRuns();
}

// A run whose process died (SIGKILL, crash, power cut) never got to write its end: it would read
// "running" forever. Its owner pid tells: if that process is gone, the run was interrupted.
// (Pid reuse can hide a dead run until the reused pid exits; it never marks a live run.)
std::vector<int64_t> RunStore::markInterruptedRuns() {
    std::vector<int64_t> dead;
    {
        auto st = db_->prepare("SELECT id, owner_pid FROM agent_run WHERE status=?");
        st.bind(1, std::string(toString(AgentRunStatus::Running)));
        while (st.step())
            if (!toolchain::processAlive(long(st.int64(1)))) dead.push_back(st.int64(0));
    }
    for (int64_t id : dead) {
        auto up = db_->prepare(
            "UPDATE agent_run SET status=?, stop_reason=?, finished_at=strftime('%Y-%m-%dT%H:%M:%SZ','now') "
            "WHERE id=? AND status=?");
        up.bind(1, std::string(toString(AgentRunStatus::Interrupted)))
            .bind(2, std::string("interrupted: the process running it ended before the run finished (killed or crashed); "
                                 "its stored iterations are kept"))
            .bind(3, static_cast<std::int64_t>(id))
            .bind(4, std::string(toString(AgentRunStatus::Running)));
        up.run();
        // Its retrievals will get no outcome: closed, so no record awaits one forever (issue 31).
        memory::AdoptionLedger::closeUnresolved(*db_, id);
    }
    return dead;
}

int64_t RunStore::createRun(const RunRecord& r) {
    auto st = db_->prepare(
        "INSERT INTO agent_run(task, device, policy, memory_mode, status, settings, owner_pid) VALUES(?,?,?,?,?,?,?)");
    st.bind(1, r.task).bind(2, r.device).bind(3, r.policy).bind(4, r.memoryMode).bind(5, std::string(toString(r.status))).bind(6, r.settings.dump());
    st.bind(7, static_cast<std::int64_t>(r.ownerPid ? r.ownerPid : int64_t(::getpid())));
    st.run();
    return db_->lastInsertId();
}

void RunStore::updateRun(const RunRecord& r) {
    auto st = db_->prepare(
        "UPDATE agent_run SET status=?, best_iteration=?, first_correct_iteration=?, stop_reason=?, "
        "finished_at=CASE WHEN ?='running' THEN NULL ELSE strftime('%Y-%m-%dT%H:%M:%SZ','now') END WHERE id=?");
    const std::string status(toString(r.status));
    st.bind(1, status).bind(2, r.bestIteration).bind(3, r.firstCorrectIteration).bind(4, r.stopReason);
    st.bind(5, status).bind(6, static_cast<std::int64_t>(r.id));
    st.run();
}

void RunStore::addIteration(const IterationRecord& it) {
    auto st = db_->prepare(
        "INSERT INTO agent_iteration(run_id, idx, parent, stage, origin, move, source, diff, evaluation, status, correct, "
        "cycles, roofline, reward, retrievals, adoptions, proposed, prompt, response, rationale, error, timings, duplicate_of, "
        "notes) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    auto array = [](const auto& items) {
        json a = json::array();
        for (const auto& x : items) a.push_back(toJson(x));
        return a.dump();
    };
    st.bind(1, static_cast<std::int64_t>(it.runId)).bind(2, it.index).bind(3, it.parent).bind(4, std::string(memory::toString(it.stage))).bind(5, it.origin).bind(6, it.move);
    st.bind(7, it.source).bind(8, it.diff).bind(9, it.evaluation ? it.evaluation->toJson().dump() : std::string("null")).bind(10, toString(it.status)).bind(11, it.correct ? 1 : 0);
    st.bind(12, static_cast<std::int64_t>(it.cycles)).bind(13, it.rooflineFraction).bind(14, it.reward).bind(15, array(it.retrievals));
    st.bind(16, array(it.adoptions)).bind(17, array(it.proposed)).bind(18, it.prompt).bind(19, it.response);
    st.bind(20, it.rationale).bind(21, it.error).bind(22, it.timings.dump()).bind(23, it.duplicateOf);
    st.bind(24, json(it.notes).dump());
    st.run();
}

namespace {
RunRecord readRun(memory::Statement& st) {
    RunRecord r;
    r.id = st.int64(0);
    r.task = st.text(1);
    r.device = st.text(2);
    r.policy = st.text(3);
    r.memoryMode = st.text(4);
    // A status no version of this program wrote reads as failed, and the stop reason says so.
    const std::string status = st.text(5);
    const auto known = parseAgentRunStatus(status);
    r.status = known.value_or(AgentRunStatus::Failed);
    r.settings = json::parse(st.text(6));
    r.startedAt = st.text(7);
    r.finishedAt = st.text(8);
    r.bestIteration = int(st.int64(9));
    r.firstCorrectIteration = int(st.int64(10));
    r.stopReason = st.text(11);
    if (!known) r.stopReason = "stored status '" + status + "' is unknown to this version" + (r.stopReason.empty() ? "" : "; " + r.stopReason);
    r.ownerPid = st.int64(12);
    return r;
}
const char* kRunColumns =
    "SELECT id, task, device, policy, memory_mode, status, settings, started_at, COALESCE(finished_at,''), "
    "best_iteration, first_correct_iteration, stop_reason, owner_pid FROM agent_run";
} // namespace

std::optional<RunRecord> RunStore::run(int64_t id) {
    auto st = db_->prepare(std::string(kRunColumns) + " WHERE id=?");
    st.bind(1, static_cast<std::int64_t>(id));
    if (!st.step()) return std::nullopt;
    return readRun(st);
}

std::vector<RunRecord> RunStore::runs(const std::string& task) {
    auto st = db_->prepare(std::string(kRunColumns) + (task.empty() ? "" : " WHERE task=?") + " ORDER BY id");
    if (!task.empty()) st.bind(1, task);
    std::vector<RunRecord> out;
    while (st.step()) out.push_back(readRun(st));
    return out;
}

std::vector<IterationRecord> RunStore::iterations(int64_t runId) {
    auto st = db_->prepare(
        "SELECT run_id, idx, parent, stage, origin, move, source, diff, evaluation, status, correct, cycles, roofline, "
        "reward, retrievals, adoptions, proposed, prompt, response, rationale, error, timings, created_at, duplicate_of, notes "
        "FROM agent_iteration WHERE run_id=? ORDER BY idx");
    st.bind(1, static_cast<std::int64_t>(runId));
    std::vector<IterationRecord> out;
    while (st.step()) {
        IterationRecord it;
        it.runId = st.int64(0);
        it.index = int(st.int64(1));
        it.parent = int(st.int64(2));
        // Only the loop writes this column, with one of the three stage names.
        it.stage = memory::parseEnum<memory::Stage>(st.text(3)).value_or(memory::Stage::Any);
        it.origin = st.text(4);
        it.move = st.text(5);
        it.source = st.text(6);
        it.diff = st.text(7);
        // The stored evaluation; unreadable text (a damaged row) reads as none rather than failing the run's listing.
        if (const json ev = json::parse(st.text(8), nullptr, false); ev.is_object()) it.evaluation = eval::Evaluation::fromJson(ev);
        // A status name this version does not know reads as error; the record's error keeps it.
        const std::string status = st.text(9);
        const auto known = parseIterationStatus(status);
        it.status = known.value_or(IterationStatus::Error);
        it.correct = st.int64(10) != 0;
        it.cycles = uint64_t(st.int64(11));
        it.rooflineFraction = st.real(12);
        it.reward = st.real(13);
        for (const auto& j : json::parse(st.text(14))) it.retrievals.push_back(retrievalFromJson(j));
        for (const auto& j : json::parse(st.text(15))) it.adoptions.push_back(adoptionFromJson(j));
        for (const auto& j : json::parse(st.text(16))) it.proposed.push_back(proposedFromJson(j));
        it.prompt = st.text(17);
        it.response = st.text(18);
        it.rationale = st.text(19);
        it.error = st.text(20);
        if (!known) it.error = "stored status '" + status + "' is unknown to this version" + (it.error.empty() ? "" : "; " + it.error);
        it.timings = json::parse(st.text(21));
        it.createdAt = st.text(22);
        it.duplicateOf = int(st.int64(23));
        // Unreadable notes (a damaged row) read as none rather than failing the run's listing.
        if (const json notes = json::parse(st.text(24), nullptr, false); notes.is_array())
            for (const auto& n : notes)
                if (n.is_string()) it.notes.push_back(n.get<std::string>());
        out.push_back(std::move(it));
    }
    return out;
}

json toJson(const RunRecord& r) {
    return {{"id", r.id},           {"task", r.task},
            {"device", r.device},   {"policy", r.policy},
            {"memory_mode", r.memoryMode}, {"status", toString(r.status)},
            {"settings", r.settings}, {"started_at", r.startedAt},
            {"finished_at", r.finishedAt}, {"best_iteration", r.bestIteration},
            {"first_correct_iteration", r.firstCorrectIteration}, {"stop_reason", r.stopReason}};
}

json toJson(const RetrievalRecord& r) {
    return {{"id", r.id}, {"title", r.title}, {"rank", r.rank}, {"score", r.score}, {"similarity", r.similarity},
            {"q", r.q}, {"explored", r.explored}, {"action", r.action}};
}

json toJson(const AdoptionRecord& a) {
    json j = {{"id", a.id}, {"declared", a.declared}};
    if (a.weight) {  // assessed by the ledger: the full credit report
        j["evidenced"] = a.evidenced;
        j["weight"] = *a.weight;
        j["credit"] = a.credit;
        j["q_before"] = a.qBefore.value_or(0);
        j["q_after"] = a.qAfter.value_or(0);
    }
    return j;
}

json toJson(const ProposedRecord& p) {
    return {{"id", p.id}, {"title", p.title}, {"deduplicated", p.deduplicated}, {"reason", p.reason}};
}

RetrievalRecord retrievalFromJson(const json& j) {
    RetrievalRecord r;
    r.id = j.value("id", int64_t(0));
    r.title = j.value("title", std::string());
    r.rank = j.value("rank", 0);
    r.score = j.value("score", 0.0);
    r.similarity = j.value("similarity", 0.0);
    r.q = j.value("q", 0.0);
    r.explored = j.value("explored", false);
    r.action = j.value("action", json());
    return r;
}

AdoptionRecord adoptionFromJson(const json& j) {
    AdoptionRecord a;
    a.id = j.value("id", int64_t(0));
    a.declared = j.value("declared", false);
    a.evidenced = j.value("evidenced", false);
    if (j.contains("weight")) a.weight = j.value("weight", 0.0);
    a.credit = j.value("credit", 0.0);
    if (j.contains("q_before")) a.qBefore = j.value("q_before", 0.0);
    if (j.contains("q_after")) a.qAfter = j.value("q_after", 0.0);
    return a;
}

ProposedRecord proposedFromJson(const json& j) {
    ProposedRecord p;
    p.id = j.value("id", int64_t(0));
    p.title = j.value("title", std::string());
    p.deduplicated = j.value("deduplicated", false);
    p.reason = j.value("reason", std::string());
    return p;
}

json toJson(const IterationRecord& it) {
    auto array = [](const auto& items) {
        json a = json::array();
        for (const auto& x : items) a.push_back(toJson(x));
        return a;
    };
    return {{"run_id", it.runId},       {"index", it.index},         {"parent", it.parent},
            {"stage", memory::toString(it.stage)},      {"origin", it.origin},       {"move", it.move},
            {"source", it.source},      {"diff", it.diff},           {"evaluation", it.evaluation ? it.evaluation->toJson() : json()},
            {"status", toString(it.status)}, {"correct", it.correct},     {"cycles", it.cycles},
            {"roofline_fraction", it.rooflineFraction}, {"reward", it.reward},
            {"retrievals", array(it.retrievals)}, {"adoptions", array(it.adoptions)}, {"proposed", array(it.proposed)},
            {"duplicate_of", it.duplicateOf},
            {"prompt", it.prompt},      {"response", it.response},   {"rationale", it.rationale},
            {"error", it.error},        {"notes", it.notes},         {"timings", it.timings},
            {"created_at", it.createdAt}};
}

} // namespace sage::agent
