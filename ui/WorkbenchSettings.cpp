#include "ui/WorkbenchSettings.h"

#include <QDir>
#include <QSettings>
#include <QStandardPaths>

namespace sage::ui {

WorkbenchSettings WorkbenchSettings::load() {
    QSettings s;
    WorkbenchSettings w;
    w.llmBaseUrl = s.value(QStringLiteral("llm/baseUrl"), w.llmBaseUrl).toString();
    w.llmModel = s.value(QStringLiteral("llm/model"), w.llmModel).toString();
    w.apiKeyEnv = s.value(QStringLiteral("llm/apiKeyEnv"), w.apiKeyEnv).toString();
    w.llmContextTokens = s.value(QStringLiteral("llm/contextTokens"), w.llmContextTokens).toInt();
    w.llmMaxTokens = s.value(QStringLiteral("llm/maxTokens"), w.llmMaxTokens).toInt();
    w.llmTemperature = s.value(QStringLiteral("llm/temperature"), w.llmTemperature).toDouble();
    w.device = s.value(QStringLiteral("device"), w.device).toString();
    w.dbPath = s.value(QStringLiteral("memory/dbPath"), w.dbPath).toString();
    w.policy = s.value(QStringLiteral("agent/policy"), w.policy).toString();
    w.memoryMode = s.value(QStringLiteral("agent/memoryMode"), w.memoryMode).toString();
    w.budget = s.value(QStringLiteral("agent/budget"), w.budget).toInt();
    w.patience = s.value(QStringLiteral("agent/patience"), w.patience).toInt();
    w.targetRoofline = s.value(QStringLiteral("agent/targetRoofline"), w.targetRoofline).toDouble();
    w.includePending = s.value(QStringLiteral("agent/includePending"), w.includePending).toBool();
    w.seeds = s.value(QStringLiteral("eval/seeds"), w.seeds).toInt();
    w.evalTimeoutSeconds = s.value(QStringLiteral("eval/timeoutSeconds"), w.evalTimeoutSeconds).toDouble();
    return w;
}

void WorkbenchSettings::save() const {
    QSettings s;
    s.setValue(QStringLiteral("llm/baseUrl"), llmBaseUrl);
    s.setValue(QStringLiteral("llm/model"), llmModel);
    s.setValue(QStringLiteral("llm/apiKeyEnv"), apiKeyEnv);
    s.setValue(QStringLiteral("llm/contextTokens"), llmContextTokens);
    s.setValue(QStringLiteral("llm/maxTokens"), llmMaxTokens);
    s.setValue(QStringLiteral("llm/temperature"), llmTemperature);
    s.setValue(QStringLiteral("device"), device);
    s.setValue(QStringLiteral("memory/dbPath"), dbPath);
    s.setValue(QStringLiteral("agent/policy"), policy);
    s.setValue(QStringLiteral("agent/memoryMode"), memoryMode);
    s.setValue(QStringLiteral("agent/budget"), budget);
    s.setValue(QStringLiteral("agent/patience"), patience);
    s.setValue(QStringLiteral("agent/targetRoofline"), targetRoofline);
    s.setValue(QStringLiteral("agent/includePending"), includePending);
    s.setValue(QStringLiteral("eval/seeds"), seeds);
    s.setValue(QStringLiteral("eval/timeoutSeconds"), evalTimeoutSeconds);
}

QString WorkbenchSettings::defaultDbPath() {
    const QByteArray env = qgetenv("SAGE_MEMORY_DB");
    if (!env.isEmpty()) return QString::fromLocal8Bit(env);
    QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    if (dir.isEmpty()) dir = QDir::homePath() + QStringLiteral("/.local/share/sage-workbench");
    return dir + QStringLiteral("/memory.db");
}

} // namespace sage::ui
