#include "sage_memory/TeamSetup.h"

#include "sage_memory/DatabaseLocation.h"
#include "sage_memory/MemoryError.h"
#include "sage_memory/Transaction.h"

#include <cctype>

namespace sage::memory {

namespace {

// Identifiers are checked, not quoted: a role or schema name also ends up in URLs and shell lines.
void requireIdentifier(const std::string& name, const char* what) {
    bool ok = !name.empty() && name.size() <= 63 && !std::isdigit(static_cast<unsigned char>(name[0]));
    for (const char c : name)
        ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
    if (!ok)
        throw MemoryError(MemoryError::Code::InvalidInput,
                          std::string(what) + " '" + name +
                              "' is not a plain identifier: use letters, digits and '_' "
                              "(not starting with a digit, at most 63 characters)");
}

std::string quoted(const std::string& identifier) {
    return "\"" + identifier + "\"";
}

bool roleExists(Database& db, const std::string& role) {
    auto stmt = db.prepare("SELECT count(*) FROM pg_roles WHERE rolname = ?1");
    stmt.bind(1, role);
    return stmt.step() && stmt.int64(0) > 0;
}

void grantTo(Database& db, const std::string& schema, const std::string& role) {
    const std::string s = quoted(schema), r = quoted(role);
    db.exec("GRANT USAGE ON SCHEMA " + s + " TO " + r);
    db.exec("GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA " + s + " TO " + r);
    db.exec("GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA " + s + " TO " + r);
    // The audit log is appended to, never rewritten, by the members.
    db.exec("REVOKE UPDATE, DELETE ON " + s + ".memory_audit FROM " + r);
    db.exec("ALTER DEFAULT PRIVILEGES IN SCHEMA " + s +
            " GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO " + r);
    db.exec("ALTER DEFAULT PRIVILEGES IN SCHEMA " + s + " GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO " + r);
}

} // namespace

std::string TeamSetup::urlWithSchema(const std::string& serverUrl, const std::string& schema) {
    return serverUrl + (serverUrl.find('?') == std::string::npos ? "?" : "&") + "options=-csearch_path%3D" +
           schema;
}

TeamSetupReport TeamSetup::init(const std::string& serverUrl, const std::string& schema,
                                const std::vector<std::string>& roles,
                                const std::vector<SchemaModule>& modules) {
    if (!DatabaseLocation::isServerUrl(serverUrl))
        throw MemoryError(
            MemoryError::Code::InvalidInput,
            serverUrl + ": team init sets up a PostgreSQL server: give a postgresql:// URL (a SQLite file "
                        "belongs to whoever can write it; no roles to grant)");
    if (serverUrl.find("options=") != std::string::npos || serverUrl.find("search_path") != std::string::npos)
        throw MemoryError(MemoryError::Code::InvalidInput,
                          DatabaseLocation::redacted(serverUrl) +
                              ": give the schema with --schema, not in the URL");
    requireIdentifier(schema, "schema");
    if (roles.empty())
        throw MemoryError(MemoryError::Code::InvalidInput,
                          "give at least one --role (a team member's database role)");
    for (const std::string& role : roles)
        requireIdentifier(role, "role");

    TeamSetupReport report;
    report.schema = schema;
    report.memoryUrl = DatabaseLocation::redacted(urlWithSchema(serverUrl, schema));
    Database db(urlWithSchema(serverUrl, schema), modules); // schema and tables, by the administrator
    Transaction tx(db);
    for (const std::string& role : roles) {
        if (!roleExists(db, role)) {
            try {
                db.exec("CREATE ROLE " + quoted(role) + " LOGIN");
            } catch (const MemoryError& e) {
                throw MemoryError(
                    e.code(),
                    std::string(e.what()) + ". Creating role '" + role +
                        "' needs CREATEROLE: "
                        "run team init as a role that has it, or create the role first (as the postgres "
                        "user: createuser " +
                        role + "). Nothing was granted.");
            }
            report.rolesCreated.push_back(role);
        }
        grantTo(db, schema, role);
        report.rolesGranted.push_back(role);
    }
    auto count = db.prepare("SELECT count(*) FROM pg_tables WHERE schemaname = ?1");
    count.bind(1, schema);
    report.tables = count.step() ? static_cast<int>(count.int64(0)) : 0;
    count.reset();
    tx.commit();
    return report;
}

} // namespace sage::memory
