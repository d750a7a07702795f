// The workbench's persisted settings (QSettings): the LLM endpoint, model and the name of the
// environment variable holding its key (never the key itself), the device, the memory database,
// evaluation and agent budgets.
#pragma once

#include <QString>

namespace sage::ui {

struct WorkbenchSettings {
    QString llmBaseUrl = QStringLiteral("http://127.0.0.1:8080/v1");
    QString llmModel = QStringLiteral("gpt-4o-mini");
    QString apiKeyEnv = QStringLiteral("OPENAI_API_KEY");
    int llmContextTokens = 32768;  // the model's context window; prompts are assembled to fit it
    int llmMaxTokens = 4096;       // reserved for the reply
    double llmTemperature = 0.2;
    QString device;       // empty: the catalog's default
    QString dbPath;       // empty: defaultDbPath()
    QString policy = QStringLiteral("builtin");
    QString memoryMode = QStringLiteral("adoption");
    int budget = 12;
    int patience = 4;
    double targetRoofline = 0.85;
    bool includePending = false;
    int seeds = 3;
    double evalTimeoutSeconds = 60;

    static WorkbenchSettings load();
    void save() const;
    bool operator==(const WorkbenchSettings&) const = default;
    // $SAGE_MEMORY_DB, else <AppDataLocation>/memory.db.
    static QString defaultDbPath();
    QString effectiveDbPath() const { return dbPath.isEmpty() ? defaultDbPath() : dbPath; }
};

} // namespace sage::ui
