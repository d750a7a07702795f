// Edits the WorkbenchSettings: LLM endpoint, model, key variable name, device, database path,
// evaluation and agent budgets; takes an API key for the desktop keychain (never the settings).
#pragma once

#include "ui/WorkbenchSettings.h"

#include <QDialog>

class QGroupBox;
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace sage::ui {

class SettingsDialog : public QDialog {
    Q_OBJECT
public:
    SettingsDialog(const WorkbenchSettings& settings, const QStringList& devices, QWidget* parent = nullptr);
    WorkbenchSettings settings() const;
    // The database the workbench has open. From the command line (--db), it is shown in place
    // of the setting, which stays as it was and applies to starts without --db.
    void setDatabaseInUse(const QString& path, bool fromCommandLine);
    // A key typed into the API key field, for the keychain (ApiKeyStore); empty: keep the stored one.
    QString newApiKey() const;
    bool removeApiKey() const;  // "Forget the stored key" was ticked

private:
    QGroupBox* buildLlmGroup(const WorkbenchSettings& s);
    QGroupBox* buildEvaluationGroup(const WorkbenchSettings& s, const QStringList& devices);
    QGroupBox* buildAgentGroup(const WorkbenchSettings& s);
    WorkbenchSettings base_;
    QLineEdit *baseUrl_, *model_, *keyEnv_, *apiKey_, *dbPath_;
    QLabel* dbInUse_;
    QCheckBox* forgetKey_;
    bool dbFromCommandLine_ = false;
    QComboBox *device_, *policy_, *memoryMode_;
    QSpinBox *budget_, *patience_, *seeds_, *contextTokens_, *maxTokens_;
    QDoubleSpinBox *target_, *timeout_, *temperature_;
    QCheckBox* includePending_;
};

} // namespace sage::ui
