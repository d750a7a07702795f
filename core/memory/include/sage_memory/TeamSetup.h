// TeamSetup: one PostgreSQL schema as a team's shared memory, ready for several database roles
// (issue 31; `sage memory team init`). Run once by an administrator (a role that may create
// schemas and roles, e.g. the database owner with CREATEROLE); again after upgrading SAGE, so
// that newer tables are created by the administrator and granted like the others.
//
//   1. the schema, and every table of the given schema modules in it (the members then never
//      need CREATE: a member's first `sage run` finds everything in place);
//   2. each role, created (LOGIN, no password: set one with ALTER ROLE, or use peer/cert
//      authentication) when it does not exist;
//   3. per role: USAGE on the schema; SELECT, INSERT, UPDATE, DELETE on every table except the
//      audit log, which members may only read and append to; the sequences of identity columns;
//      and the same as default privileges, for tables the administrator creates there later.
#pragma once

#include "sage_memory/Database.h"

#include <string>
#include <vector>

namespace sage::memory {

struct TeamSetupReport {
    std::string schema;
    std::string memoryUrl;                 // what members pass to --db (the URL with the schema; no user)
    std::vector<std::string> rolesCreated; // roles that did not exist before
    std::vector<std::string> rolesGranted; // every role given access
    int tables = 0;                        // tables in the schema
};

class TeamSetup {
  public:
    // `serverUrl`: postgresql:// URL without a password and without a search_path option;
    // `schema`, `roles`: plain identifiers (letters, digits, '_'; not starting with a digit).
    // Throws MemoryError naming what is wrong and what to do; grants are one transaction.
    static TeamSetupReport init(const std::string& serverUrl, const std::string& schema,
                                const std::vector<std::string>& roles,
                                const std::vector<SchemaModule>& modules);
    // The URL with options=-csearch_path=<schema> added.
    static std::string urlWithSchema(const std::string& serverUrl, const std::string& schema);
};

} // namespace sage::memory
