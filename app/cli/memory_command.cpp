// `sage memory`: browse and curate the experience memory from the shell. Every sub-command
// opens the store named by --db (or $SAGE_MEMORY_DB), does one thing through the core API and
// prints it for people, or as JSON with --json. Errors say what, where and what to do, and
// exit non-zero: 1 the request could not be done (unknown id, bad field, conflict), 3 the
// database file was refused (not SQLite, damaged, newer schema), 4 a file could not be read
// or written, 5 any other SQLite failure, 6 the database server is unavailable.
#include "cli/agent_db.h"
#include "cli/command_registry.h"

#include "sage_memory/ExperienceStore.h"
#include "sage_memory/MemoryError.h"
#include "sage_memory/MemorySchema.h"
#include "sage_memory/TeamSetup.h"
#include "sage_memory/TriggerVocabulary.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

namespace sage::cli {
namespace {

using namespace sage::memory;
using nlohmann::json;

// What the sub-commands read from the command line. Shared by the callbacks through a shared_ptr.
struct MemoryCli {
    std::string db;
    bool json = false;
    std::int64_t id = 0;
    std::int64_t other = 0;
    std::string file;
    std::string by;
    std::string why;
    int expectRevision = -1;  // --expect-revision; -1 = no check
    // list
    std::string status, stage, kind, origin, text;
    bool flagged = false, pinned = false;
    int limit = 0;
    // add / edit: each option is "given" when its count() > 0
    std::map<std::string, std::string> fields;
    std::map<std::string, CLI::Option*> fieldOptions;
    std::string from;
    // search
    std::vector<std::string> diagnostics;
    std::string bottleneck, category, device, mode = "adoption";
    bool includePending = false;
    std::vector<std::string> words;
    // team init
    std::string schema;
    std::vector<std::string> roles;
};

[[noreturn]] void fail(const MemoryCli& cli, int exitCode, const std::string& code, const std::string& message) {
    if (cli.json)
        std::cerr << json{{"error", {{"code", code}, {"message", message}}}}.dump() << "\n";
    else
        std::cerr << "sage memory: error: " << message << "\n";
    throw CLI::RuntimeError(exitCode);
}

int exitCodeFor(MemoryError::Code code) {
    switch (code) {
    case MemoryError::Code::NotADatabase:
    case MemoryError::Code::SchemaTooNew: return 3;
    case MemoryError::Code::Io: return 4;
    case MemoryError::Code::Sqlite: return 5;
    case MemoryError::Code::Unavailable: return kExitDatabaseUnavailable;
    default: return 1;
    }
}

// Opens the store and runs the body; turns every failure into a message and an exit code.
template <class Body> void withStore(const MemoryCli& cli, Body&& body) {
    try {
        ExperienceStore store(cli.db);
        body(store);
    } catch (const MemoryError& e) {
        fail(cli, exitCodeFor(e.code()), MemoryError::codeName(e.code()), e.what());
    } catch (const json::exception& e) {
        fail(cli, 1, "invalid_input", std::string("bad JSON: ") + e.what());
    }
}

std::string fmt(const char* format, double value) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, format, value);
    return buffer;
}

std::string readTextFile(const std::string& path, const char* what) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw MemoryError(MemoryError::Code::Io, path + ": cannot read the " + std::string(what) + " file. Check the path.");
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

json parseJsonText(const std::string& text, const std::string& where) {
    try {
        return json::parse(text);
    } catch (const json::parse_error& e) {
        throw MemoryError(MemoryError::Code::InvalidInput, where + ": not valid JSON (" + e.what() + ")");
    }
}

ChangeNote note(const MemoryCli& cli) {
    ChangeNote n{cli.by, cli.why};
    if (cli.expectRevision >= 0) n.expectedRevision = cli.expectRevision;
    return n;
}

// ---- add / edit fields ------------------------------------------------------------------------

struct FieldFlag {
    const char* name;  // option name without dashes, and the JSON field it sets
    const char* help;
};

const FieldFlag kFieldFlags[] = {
    {"title", "New title (short, id-like: 'ub-budget-910b')"},
    {"kind", "insight|repair_rule|optimization|pitfall|api_usage|exemplar"},
    {"stage", "draft|repair|optimize|any"},
    {"status", "pending|approved|rejected|archived"},
    {"category", "Trigger op category (elementwise, reduction, matmul, ...); '' clears"},
    {"diagnostic", "Trigger diagnostic kind (capacity_exceeded, race_raw, ...); '' clears"},
    {"bottleneck", "Trigger bottleneck class (mte2_bound, vector_bound, ...); '' clears"},
    {"content", "New content (markdown)"},
    {"content-file", "Read the new content from this file"},
    {"code-idiom", "Code snippet showing the advice applied; '' clears"},
    {"evidence-pattern", "Regex (or literal) whose presence in added lines evidences adoption; '' clears"},
    {"action", "Action for the built-in policy as a JSON object, or 'none' to clear"},
    {"applies-devices", "Retrieve only on these device ids (comma-separated, e.g. ascend310p3-sim); '' = any"},
    {"applies-categories", "Retrieve only for tasks of these op categories (comma-separated); '' = any"},
};

json commaList(const std::string& text) {
    json out = json::array();
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find(',', start);
        if (end == std::string::npos) end = text.size();
        std::string item = text.substr(start, end - start);
        item.erase(0, item.find_first_not_of(" \t"));
        item.erase(item.find_last_not_of(" \t") + 1);
        if (!item.empty()) out.push_back(item);
        start = end + 1;
    }
    return out;
}

void addFieldOptions(CLI::App* cmd, const std::shared_ptr<MemoryCli>& cli) {
    for (const FieldFlag& flag : kFieldFlags)
        cli->fieldOptions[std::string(cmd->get_name()) + ":" + flag.name] =
            cmd->add_option(std::string("--") + flag.name, cli->fields[flag.name], flag.help);
    cmd->add_option("--from", cli->from,
                    "JSON file with the fields to set: any of title, kind, stage, trigger{category,diagnostic,"
                    "bottleneck}, content, code_idiom, evidence_pattern, action, status, pinned. The output of "
                    "`show ID --json` works too (read-only fields are ignored). Flags override the file.");
}

// The patch a command asks for: the --from file first, then each given flag on top.
json requestedFields(const MemoryCli& cli, const std::string& command) {
    json object = json::object();
    if (!cli.from.empty()) {
        object = parseJsonText(readTextFile(cli.from, "--from"), cli.from);
        if (!object.is_object())
            throw MemoryError(MemoryError::Code::InvalidInput, cli.from + ": must hold one JSON object");
        for (const char* readOnly : {"id", "origin", "merged_into", "provenance", "created_at", "updated_at", "stats",
                                     "revisions", "q_history"})
            object.erase(readOnly);
    }
    auto given = [&](const char* name) { return cli.fieldOptions.at(command + ":" + name)->count() > 0; };
    auto value = [&](const char* name) { return cli.fields.at(name); };
    for (const char* name : {"title", "kind", "stage", "status", "content"})
        if (given(name)) object[name] = value(name);
    if (given("content-file")) object["content"] = readTextFile(value("content-file"), "--content-file");
    if (given("code-idiom")) object["code_idiom"] = value("code-idiom");
    if (given("evidence-pattern")) object["evidence_pattern"] = value("evidence-pattern");
    for (const char* name : {"category", "diagnostic", "bottleneck"})
        if (given(name)) object["trigger"][name] = value(name);
    if (given("action"))
        object["action"] = value("action") == "none" ? json(nullptr) : parseJsonText(value("action"), "--action");
    if (given("applies-devices") || given("applies-categories")) {
        if (!object.contains("applies_to") || !object["applies_to"].is_object()) object["applies_to"] = json::object();
        if (given("applies-devices")) object["applies_to"]["devices"] = commaList(value("applies-devices"));
        if (given("applies-categories")) object["applies_to"]["categories"] = commaList(value("applies-categories"));
    }
    return object;
}

// Typos in trigger values make an entry silently unreachable by exact trigger match: warn.
void warnUnknownTrigger(const MemoryCli& cli, const Trigger& trigger) {
    if (cli.json) return;
    for (const std::string& note : TriggerVocabulary::unknownValues(trigger))
        std::cerr << "sage memory: note: " << note << "; it is stored as given\n";
}

// ---- output -----------------------------------------------------------------------------------

json summaryJson(const ExperienceSummary& s) {
    return json{{"id", s.id},
                {"title", s.title},
                {"kind", toString(s.kind)},
                {"stage", toString(s.stage)},
                {"status", toString(s.status)},
                {"origin", toString(s.origin)},
                {"pinned", s.pinned},
                {"merged_into", s.mergedInto ? json(*s.mergedInto) : json(nullptr)},
                {"trigger", {{"category", s.trigger.category}, {"diagnostic", s.trigger.diagnostic},
                             {"bottleneck", s.trigger.bottleneck}}},
                {"updated_at", s.updatedAt},
                {"flagged", s.flagged()},
                {"stats", s.stats.toJson()}};
}

void printList(const std::vector<ExperienceSummary>& rows, const std::string& db, std::int64_t total) {
    if (rows.empty() && total == 0) {
        std::cout << "No entries in " << db << " yet.\n"
                  << "Add the seed pack with: sage memory --db " << db << " import resources/memory/seed.jsonl\n";
        return;
    }
    if (rows.empty()) {
        std::cout << "No entries match these filters (" << total << " entries in " << db << ").\n";
        return;
    }
    std::printf("%5s  %-8s  %-8s  %-12s  %-3s  %-20s  %5s  %5s  %s\n", "ID", "STATUS", "STAGE", "KIND", "PIN",
                "Q draft/repair/opt", "RETR", "ADOPT", "TITLE");
    int flagged = 0;
    for (const ExperienceSummary& s : rows) {
        const StageStats total = s.stats.totals();
        std::string q;
        for (const Stage stage : kLearningStages) q += fmt("%+.2f ", s.stats.at(stage).q);
        flagged += s.flagged();
        std::printf("%5lld  %-8s  %-8s  %-12s  %-3s  %-20s  %5lld  %5lld  %s%s\n", static_cast<long long>(s.id),
                    std::string(toString(s.status)).c_str(), std::string(toString(s.stage)).c_str(),
                    std::string(toString(s.kind)).c_str(), s.pinned ? "yes" : "", q.c_str(),
                    static_cast<long long>(total.retrieved), static_cast<long long>(total.adopted),
                    s.flagged() ? "[review] " : "", s.title.c_str());
    }
    std::cout << rows.size() << (rows.size() == 1 ? " entry" : " entries");
    if (flagged) std::cout << ", " << flagged << " flagged [review]: retrieved often, rarely adopted";
    std::cout << "\n";
}

std::string optionalText(const std::optional<std::int64_t>& value) { return value ? std::to_string(*value) : "-"; }

void printIndented(const std::string& text, const char* indent = "    ") {
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) std::cout << indent << line << "\n";
}

void printShow(ExperienceStore& store, std::int64_t id) {
    const Experience e = store.get(id);
    const ExperienceStats stats = store.stats(id);
    std::cout << "#" << e.id << "  " << e.title << "\n"
              << "  status " << toString(e.status) << " | kind " << toString(e.kind) << " | stage " << toString(e.stage)
              << " | origin " << toString(e.origin) << (e.pinned ? " | pinned" : "")
              << (e.mergedInto ? " | merged into #" + std::to_string(*e.mergedInto) : "") << "\n"
              << "  trigger: category '" << e.trigger.category << "', diagnostic '" << e.trigger.diagnostic
              << "', bottleneck '" << e.trigger.bottleneck << "'\n";
    if (!e.appliesTo.empty())
        std::cout << "  applies to: devices " << json(e.appliesTo.devices).dump() << ", categories "
                  << json(e.appliesTo.categories).dump() << "\n";
    std::cout
              << "  created " << e.createdAt << ", updated " << e.updatedAt << ", revision " << e.revision
              << " (edit with --expect-revision " << e.revision << " to refuse a stale change)\n\n  content:\n";
    printIndented(e.content);
    if (!e.codeIdiom.empty()) {
        std::cout << "  code idiom:\n";
        printIndented(e.codeIdiom);
    }
    if (!e.evidencePattern.empty()) std::cout << "  evidence pattern: " << e.evidencePattern << "\n";
    if (!e.action.is_null()) std::cout << "  action: " << e.action.dump() << "\n";
    std::cout << "\n  learned     Q      retrieved adopted ignored successes mean-reward\n";
    for (const StageStats& s : stats.stages)
        std::printf("  %-9s %+6.3f %9lld %7lld %7lld %9lld %+11.3f\n", std::string(toString(s.stage)).c_str(), s.q,
                    static_cast<long long>(s.retrieved), static_cast<long long>(s.adopted),
                    static_cast<long long>(s.ignored), static_cast<long long>(s.successes), s.meanReward());
    if (stats.flaggedForReview()) std::cout << "  [review] retrieved often but rarely adopted: edit, merge or archive it\n";
    std::cout << "\n  provenance:\n";
    for (const Provenance& p : e.provenance) {
        std::cout << "    task '" << p.task << "', run " << optionalText(p.run) << ", iteration "
                  << optionalText(p.iteration) << (p.note.empty() ? "" : " — " + p.note) << "\n";
        if (!p.diff.empty()) printIndented(p.diff, "      | ");
    }
    const auto revisions = store.revisions(id);
    std::cout << "\n  revisions (" << revisions.size() << "):\n";
    for (const Revision& r : revisions)
        std::cout << "    r" << r.revision << "  " << r.at << "  " << r.author << ": " << r.reason << "\n";
    const auto history = store.qHistory(id);
    std::cout << "\n  Q history (" << history.size() << " changes";
    if (history.size() > 10) std::cout << ", last 10";
    std::cout << "):\n";
    for (std::size_t i = history.size() > 10 ? history.size() - 10 : 0; i < history.size(); ++i) {
        const ValuePoint& p = history[i];
        std::cout << "    " << p.at << "  " << toString(p.stage) << " " << fmt("%+.3f", p.q) << "  " << p.cause;
        if (p.run) std::cout << " (run " << *p.run << ", iteration " << optionalText(p.iteration) << ")";
        if (p.experienceId != id) std::cout << " [from merged #" << p.experienceId << "]";
        std::cout << "\n";
    }
}

void printOverview(const StoreOverview& o, const std::string& db) {
    auto line = [](const char* label, const std::map<std::string, std::int64_t>& counts) {
        std::cout << "  " << label;
        bool first = true;
        for (const auto& [name, count] : counts) {
            std::cout << (first ? " " : ", ") << name << " " << count;
            first = false;
        }
        std::cout << "\n";
    };
    std::cout << db << ": " << o.entries << " experiences\n";
    line("status:", o.byStatus);
    line("stage: ", o.byStage);
    line("kind:  ", o.byKind);
    line("origin:", o.byOrigin);
    std::cout << "  pinned " << o.pinned << ", flagged for review " << o.flagged << "\n"
              << "  retrievals recorded " << o.retrievals << ": outcome known " << o.resolved << ", adopted "
              << o.adopted << ", ignored " << (o.resolved - o.adopted) << ", awaiting outcome "
              << (o.retrievals - o.resolved) << "\n";
    if (!o.top.empty()) std::cout << "  highest values:\n";
    for (const StoreOverview::TopEntry& t : o.top)
        std::cout << "    " << toString(t.stage) << "  #" << t.id << " " << fmt("%+.3f", t.q) << " (adopted " << t.adopted
                  << ")  " << t.title << "\n";
}

// ---- sub-commands -----------------------------------------------------------------------------

void addIdArgument(CLI::App* cmd, std::int64_t& id) {
    cmd->add_option("id", id, "Experience id (see `list`)")->required();
}

// --by and --why, on every command that changes entries (issue 31: add and import too).
void addAuthorOptions(CLI::App* cmd, MemoryCli& cli) {
    cmd->add_option("--by,--user", cli.by,
                    "Who makes the change (default: $USER); kept in the audit log next to the account the database "
                    "knows (PostgreSQL's session_user, or the OS account)");
    cmd->add_option("--why", cli.why, "Why; kept in the audit log and the entry's revision history");
}

void addNoteOptions(CLI::App* cmd, MemoryCli& cli) {
    addAuthorOptions(cmd, cli);
    cmd->add_option("--expect-revision", cli.expectRevision,
                    "Fail (and change nothing) unless the entry is still at this revision (see `show`): a stale "
                    "edit cannot overwrite a colleague's")
        ->check(CLI::NonNegativeNumber);
}

// approve / reject / archive / pin / unpin: one id, one change, one line of output.
void addCurationCommand(CLI::App* memory, const std::shared_ptr<MemoryCli>& cli, const char* name, const char* help,
                        std::function<bool(ExperienceStore&, std::int64_t, const ChangeNote&)> apply, const char* done) {
    auto* cmd = memory->add_subcommand(name, help);
    addIdArgument(cmd, cli->id);
    addNoteOptions(cmd, *cli);
    cmd->callback([cli, apply, done] {
        withStore(*cli, [&](ExperienceStore& store) {
            const bool changed = apply(store, cli->id, note(*cli));
            if (cli->json)
                std::cout << json{{"id", cli->id}, {"changed", changed}, {"status", toString(store.get(cli->id).status)}}.dump() << "\n";
            else if (changed)
                std::cout << "#" << cli->id << " " << done << "\n";
            else
                std::cout << "#" << cli->id << " was already " << done << " (nothing changed)\n";
        });
    });
}

void addListCommand(CLI::App* memory, const std::shared_ptr<MemoryCli>& cli) {
    auto* cmd = memory->add_subcommand("list", "List entries with their learned values (filters combine)");
    cmd->add_option("--status", cli->status, "Only this status: " + enumChoices<ExperienceStatus>());
    cmd->add_option("--stage", cli->stage, "Only this stage: " + enumChoices<Stage>());
    cmd->add_option("--kind", cli->kind, "Only this kind: " + enumChoices<ExperienceKind>());
    cmd->add_option("--origin", cli->origin, "Only this origin: " + enumChoices<Origin>());
    cmd->add_option("--text", cli->text, "Only entries mentioning any of these words");
    cmd->add_flag("--flagged", cli->flagged, "Only entries flagged for review (retrieved >= 5, adopted < 20%)");
    cmd->add_flag("--pinned", cli->pinned, "Only pinned entries");
    cmd->add_option("--limit", cli->limit, "At most this many entries");
    cmd->callback([cli] {
        withStore(*cli, [&](ExperienceStore& store) {
            ExperienceFilter filter;
            if (!cli->status.empty()) filter.status = requireEnum<ExperienceStatus>(cli->status);
            if (!cli->stage.empty()) filter.stage = requireEnum<Stage>(cli->stage);
            if (!cli->kind.empty()) filter.kind = requireEnum<ExperienceKind>(cli->kind);
            if (!cli->origin.empty()) filter.origin = requireEnum<Origin>(cli->origin);
            filter.text = cli->text;
            filter.flaggedOnly = cli->flagged;
            filter.pinnedOnly = cli->pinned;
            filter.limit = cli->limit;
            const auto rows = store.list(filter);
            if (!cli->json) return printList(rows, cli->db, store.count());
            json out = json::array();
            for (const ExperienceSummary& s : rows) out.push_back(summaryJson(s));
            std::cout << out.dump(2) << "\n";
        });
    });
}

void addShowCommand(CLI::App* memory, const std::shared_ptr<MemoryCli>& cli) {
    auto* cmd = memory->add_subcommand("show", "Show one entry: text, trigger, stats, provenance, revisions, Q history");
    addIdArgument(cmd, cli->id);
    cmd->callback([cli] {
        withStore(*cli, [&](ExperienceStore& store) {
            if (cli->json) std::cout << store.exchange().entryJson(cli->id).dump(2) << "\n";
            else printShow(store, cli->id);
        });
    });
}

void addEditCommands(CLI::App* memory, const std::shared_ptr<MemoryCli>& cli) {
    auto* edit = memory->add_subcommand("edit", "Change fields of an entry; the old version is kept as a revision");
    addIdArgument(edit, cli->id);
    addFieldOptions(edit, cli);
    addNoteOptions(edit, *cli);
    edit->callback([cli] {
        withStore(*cli, [&](ExperienceStore& store) {
            const json fields = requestedFields(*cli, "edit");
            if (fields.empty())
                throw MemoryError(MemoryError::Code::InvalidInput,
                                  "nothing to change: give a field flag (--title, --content, --status, ...) or "
                                  "--from FILE.json (see `sage memory edit --help`)");
            const auto changed = store.edit(cli->id, ExperiencePatch::fromJson(fields), note(*cli));
            warnUnknownTrigger(*cli, store.get(cli->id).trigger);
            if (cli->json) {
                std::cout << json{{"id", cli->id}, {"changed", changed}}.dump() << "\n";
            } else if (changed.empty()) {
                std::cout << "#" << cli->id << " unchanged: the given values equal the current ones\n";
            } else {
                std::cout << "#" << cli->id << " edited:";
                for (const std::string& f : changed) std::cout << " " << f;
                std::cout << " (previous version kept as revision " << store.revisions(cli->id).back().revision << ")\n";
            }
        });
    });

    auto* add = memory->add_subcommand("add", "Add an entry written by a person (pending unless --status is given)");
    addFieldOptions(add, cli);
    addAuthorOptions(add, *cli);
    add->callback([cli] {
        withStore(*cli, [&](ExperienceStore& store) {
            Experience e;
            e.origin = Origin::Human;
            e.status = ExperienceStatus::Pending;
            ExperiencePatch::fromJson(requestedFields(*cli, "add")).applyTo(e);
            if (const auto problems = e.problems(); !problems.empty())
                throw MemoryError(MemoryError::Code::InvalidInput,
                                  "cannot add the entry: " + problems.front() + " (give --title and --content)");
            const std::int64_t id = store.add(e, note(*cli));
            warnUnknownTrigger(*cli, e.trigger);
            if (cli->json) std::cout << json{{"id", id}, {"status", toString(e.status)}}.dump() << "\n";
            else std::cout << "#" << id << " added (" << toString(e.status) << ")\n";
        });
    });
}

void addMergeDeleteCommands(CLI::App* memory, const std::shared_ptr<MemoryCli>& cli) {
    auto* merge = memory->add_subcommand("merge", "Merge entry B into entry A (stats combined, B archived)");
    merge->add_option("a", cli->id, "The entry that stays")->required();
    merge->add_option("b", cli->other, "The entry folded into A and archived")->required();
    addNoteOptions(merge, *cli);
    merge->callback([cli] {
        withStore(*cli, [&](ExperienceStore& store) {
            store.merge(cli->id, cli->other, note(*cli));
            if (cli->json) std::cout << json{{"kept", cli->id}, {"archived", cli->other}}.dump() << "\n";
            else std::cout << "merged #" << cli->other << " into #" << cli->id << "; #" << cli->other << " is archived\n";
        });
    });

    auto* del = memory->add_subcommand("delete", "Delete an entry with its stats and histories (cannot be undone; "
                                                 "`archive` keeps it)");
    addIdArgument(del, cli->id);
    addNoteOptions(del, *cli);
    del->callback([cli] {
        withStore(*cli, [&](ExperienceStore& store) {
            const std::string title = store.get(cli->id).title;
            store.remove(cli->id, note(*cli));
            if (cli->json) std::cout << json{{"deleted", cli->id}}.dump() << "\n";
            else std::cout << "#" << cli->id << " deleted (" << title << ")\n";
        });
    });
}

// audit [ID]: who approved, rejected, edited, merged or deleted what (issue 16), newest first.
void addAuditCommand(CLI::App* memory, const std::shared_ptr<MemoryCli>& cli) {
    auto* cmd = memory->add_subcommand("audit", "Who added, imported, approved, rejected, edited, merged or deleted "
                                                "entries (declared name and database account), newest first");
    cmd->add_option("id", cli->id, "Only this entry (default: every entry)");
    cmd->add_option("--limit", cli->limit, "At most this many lines (default 100)");
    cmd->callback([cli] {
        withStore(*cli, [&](ExperienceStore& store) {
            const auto log = store.auditLog(cli->id, cli->limit > 0 ? cli->limit : 100);
            if (cli->json) {
                json out = json::array();
                for (const AuditRecord& r : log)
                    out.push_back({{"experience", r.experienceId}, {"revision", r.revision}, {"action", r.action},
                                   {"author", r.author}, {"account", r.account}, {"reason", r.reason}, {"at", r.at}});
                std::cout << out.dump(2) << "\n";
                return;
            }
            if (log.empty()) std::cout << "No curation recorded yet.\n";
            for (const AuditRecord& r : log)
                std::cout << r.at << "  #" << r.experienceId << "  " << r.action << " by " << r.author
                          << (r.account.empty() ? std::string() : " [account " + r.account + "]")
                          << (r.revision > 0 ? "  (revision " + std::to_string(r.revision) + ")" : std::string())
                          << (r.reason != r.action ? "  " + r.reason : std::string()) << "\n";
        });
    });
}

void addExchangeCommands(CLI::App* memory, const std::shared_ptr<MemoryCli>& cli) {
    auto* exp = memory->add_subcommand("export", "Write every entry, with stats and histories, as JSON Lines");
    exp->add_option("file", cli->file, "Output file (replaced)")->required();
    exp->add_option("--status", cli->status, "Only entries with this status");
    auto learned = std::make_shared<bool>(false);
    exp->add_flag("--learned", *learned,
                  "Only what the agent learned (origin agent: lessons on trial, promoted, retired or reviewed), with "
                  "their values and histories, for another team's memory (`sage memory import`)");
    exp->callback([cli, learned] {
        withStore(*cli, [&](ExperienceStore& store) {
            ExperienceFilter filter;
            if (!cli->status.empty()) filter.status = requireEnum<ExperienceStatus>(cli->status);
            if (*learned) filter.origin = Origin::Agent;
            const int count = store.exportTo(cli->file, filter);
            if (cli->json) std::cout << json{{"exported", count}, {"file", cli->file}}.dump() << "\n";
            else std::cout << "exported " << count << " entries to " << cli->file << "\n";
        });
    });

    auto* imp = memory->add_subcommand("import", "Add entries from a JSON Lines file (an export or the seed pack)");
    imp->add_option("file", cli->file, "JSON Lines file, one entry per line")->required();
    addAuthorOptions(imp, *cli);
    imp->callback([cli] {
        withStore(*cli, [&](ExperienceStore& store) {
            const ImportReport r = store.importFrom(cli->file, note(*cli));
            if (cli->json) {
                std::cout << json{{"imported", r.imported}, {"skipped", r.skipped}, {"renumbered", r.renumbered},
                                  {"notes", r.notes}}.dump() << "\n";
                return;
            }
            std::cout << "imported " << r.imported << " entries from " << cli->file << " (" << r.skipped
                      << " skipped as already present, " << r.renumbered << " given new ids)\n";
            for (const std::string& n : r.notes) std::cout << "  note: " << n << "\n";
        });
    });

    auto* stats = memory->add_subcommand("stats", "Summarise the memory: counts, adoption, best values");
    stats->callback([cli] {
        withStore(*cli, [&](ExperienceStore& store) {
            const StoreOverview o = store.overview();
            if (cli->json) std::cout << o.toJson().dump(2) << "\n";
            else printOverview(o, cli->db);
        });
    });
}

void addSearchCommand(CLI::App* memory, const std::shared_ptr<MemoryCli>& cli) {
    auto* cmd = memory->add_subcommand("search", "Retrieve as the agent would, showing every part of the score");
    cmd->add_option("words", cli->words, "Description text to match");
    cmd->add_option("--stage", cli->stage, "draft|repair|optimize (default repair)");
    cmd->add_option("--category", cli->category, "Op category of the task");
    cmd->add_option("--device", cli->device, "Device profile id (entries applicable elsewhere are left out)");
    cmd->add_option("--diagnostic", cli->diagnostics, "Diagnostic kind (repeatable)");
    cmd->add_option("--bottleneck", cli->bottleneck, "Bottleneck class");
    cmd->add_option("--limit", cli->limit, "How many entries (default 5)");
    cmd->add_option("--mode", cli->mode, "Memory mode: " + enumChoices<MemoryMode>());
    cmd->add_flag("--pending", cli->includePending, "Include pending entries");
    cmd->callback([cli] {
        withStore(*cli, [&](ExperienceStore& store) {
            RetrievalContext ctx;
            ctx.stage = requireEnum<Stage>(cli->stage.empty() ? "repair" : cli->stage);
            ctx.category = cli->category;
            ctx.device = cli->device;
            ctx.bottleneck = cli->bottleneck;
            for (const std::string& d : cli->diagnostics) ctx.diagnostics.push_back({d, ""});
            for (const std::string& w : cli->words) ctx.description += w + " ";
            ctx.limit = cli->limit > 0 ? cli->limit : 5;
            ctx.mode = requireEnum<MemoryMode>(cli->mode);
            ctx.includePending = cli->includePending;
            const auto found = store.retrieve(ctx);
            json out = json::array();
            for (const ScoredExperience& s : found)
                out.push_back({{"rank", s.rank}, {"id", s.experience.id}, {"title", s.experience.title},
                               {"score", s.score}, {"similarity", s.similarity}, {"text_similarity", s.textSimilarity},
                               {"trigger_match", s.triggerMatch}, {"q", s.q}, {"explored", s.explored}});
            if (cli->json) return void(std::cout << out.dump(2) << "\n");
            if (found.empty()) return void(std::cout << "nothing retrieved\n");
            std::printf("%4s %5s  %6s  %6s  %6s  %7s  %6s  %s\n", "RANK", "ID", "SCORE", "SIM", "TEXT", "TRIGGER", "Q",
                        "TITLE");
            for (const ScoredExperience& s : found)
                std::printf("%4d %5lld  %6.3f  %6.3f  %6.3f  %7.3f  %+6.3f  %s\n", s.rank,
                            static_cast<long long>(s.experience.id), s.score, s.similarity, s.textSimilarity,
                            s.triggerMatch, s.q, s.experience.title.c_str());
        });
    });
}

// team init: a schema on a PostgreSQL server that several roles share (issue 31).
void addTeamCommand(CLI::App* memory, const std::shared_ptr<MemoryCli>& cli) {
    auto* team = memory->add_subcommand("team", "Set up a shared PostgreSQL memory for a team");
    team->require_subcommand(1);
    auto* init = team->add_subcommand(
        "init", "Create the schema and every table, the roles that are missing, and the grants each role needs to "
                "run, curate and audit (run once as an administrator; again after upgrading SAGE)");
    init->add_option("--schema", cli->schema, "Schema of the team's memory (letters, digits, '_')")->required();
    init->add_option("--role", cli->roles, "A member's database role (repeatable); created with LOGIN if missing")
        ->required();
    init->callback([cli] {
        try {
            const TeamSetupReport r = TeamSetup::init(
                cli->db, cli->schema, cli->roles,
                {MemorySchema::module(), agent::AgentSchema::module()});
            if (cli->json) {
                std::cout << json{{"schema", r.schema}, {"url", r.memoryUrl}, {"roles_created", r.rolesCreated},
                                  {"roles_granted", r.rolesGranted}, {"tables", r.tables}}.dump() << "\n";
                return;
            }
            std::cout << "schema " << r.schema << ": " << r.tables << " tables; granted to";
            for (const std::string& role : r.rolesGranted) std::cout << " " << role;
            std::cout << "\n";
            for (const std::string& role : r.rolesCreated)
                std::cout << "  created role " << role << " (LOGIN, no password: ALTER ROLE " << role
                          << " PASSWORD '...' as an administrator, or use peer authentication)\n";
            std::cout << "members use: --db '" << r.memoryUrl << "' (with their own user@ in the URL)\n";
        } catch (const MemoryError& e) {
            fail(*cli, exitCodeFor(e.code()), MemoryError::codeName(e.code()), e.what());
        }
    });
}

} // namespace

void registerMemoryCommand(CLI::App& app) {
    auto cli = std::make_shared<MemoryCli>();
    if (const char* user = std::getenv("USER")) cli->by = user;
    auto* memory = app.add_subcommand("memory", "Browse and curate the experience memory (SQLite file or PostgreSQL URL)");
    memory->fallthrough();  // `sage memory list --db F` works as well as `sage memory --db F list`
    memory->require_subcommand(1);
    memory->add_option("--db", cli->db,
                       "Memory database: a file (created if missing) or a postgresql:// URL (password from "
                       "~/.pgpass or PGPASSWORD, never in the URL)")
        ->envname("SAGE_MEMORY_DB")
        ->required();
    memory->add_flag("--json", cli->json, "Machine-readable JSON output (errors too, on stderr)");

    addListCommand(memory, cli);
    addShowCommand(memory, cli);
    addCurationCommand(memory, cli, "approve", "Approve an entry (the agent sees approved entries)",
                       [](ExperienceStore& s, std::int64_t id, const ChangeNote& n) { return s.approve(id, n); },
                       "approved");
    addCurationCommand(memory, cli, "reject", "Reject an entry",
                       [](ExperienceStore& s, std::int64_t id, const ChangeNote& n) { return s.reject(id, n); },
                       "rejected");
    addCurationCommand(memory, cli, "archive", "Archive an entry (kept, never retrieved)",
                       [](ExperienceStore& s, std::int64_t id, const ChangeNote& n) { return s.archive(id, n); },
                       "archived");
    addCurationCommand(memory, cli, "pin", "Pin an entry (score bonus in retrieval)",
                       [](ExperienceStore& s, std::int64_t id, const ChangeNote& n) { return s.setPinned(id, true, n); },
                       "pinned");
    addCurationCommand(memory, cli, "unpin", "Unpin an entry",
                       [](ExperienceStore& s, std::int64_t id, const ChangeNote& n) { return s.setPinned(id, false, n); },
                       "unpinned");
    addEditCommands(memory, cli);
    addMergeDeleteCommands(memory, cli);
    addAuditCommand(memory, cli);
    addExchangeCommands(memory, cli);
    addSearchCommand(memory, cli);
    addTeamCommand(memory, cli);
}

} // namespace sage::cli
