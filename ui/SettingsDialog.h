// Edits the WorkbenchSettings: LLM endpoint, model, key variable name, device, database path,
// evaluation and agent budgets.
#pragma once

#include "ui/WorkbenchSettings.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QSpinBox;

namespace sage::ui {

class SettingsDialog : public QDialog {
    Q_OBJECT
public:
    SettingsDialog(const WorkbenchSettings& settings, const QStringList& devices, QWidget* parent = nullptr);
    WorkbenchSettings settings() const;

private:
    WorkbenchSettings base_;
    QLineEdit *baseUrl_, *model_, *keyEnv_, *dbPath_;
    QComboBox *device_, *policy_, *memoryMode_;
    QSpinBox *budget_, *patience_, *seeds_, *contextTokens_, *maxTokens_;
    QDoubleSpinBox *target_, *timeout_, *temperature_;
    QCheckBox* includePending_;
};

} // namespace sage::ui
