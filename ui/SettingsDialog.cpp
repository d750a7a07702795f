#include "ui/SettingsDialog.h"

#include <algorithm>

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace sage::ui {

SettingsDialog::SettingsDialog(const WorkbenchSettings& s, const QStringList& devices, QWidget* parent)
    : QDialog(parent), base_(s) {
    setWindowTitle(tr("Settings"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(buildLlmGroup(s));
    layout->addWidget(buildEvaluationGroup(s, devices));
    layout->addWidget(buildAgentGroup(s));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
}

// Endpoint, model, where the API key comes from (variable or keychain) and the token budget.
QGroupBox* SettingsDialog::buildLlmGroup(const WorkbenchSettings& s) {
    auto* llm = new QGroupBox(tr("LLM policy (OpenAI-compatible)"), this);
    auto* llmForm = new QFormLayout(llm);
    baseUrl_ = new QLineEdit(s.llmBaseUrl, llm);
    model_ = new QLineEdit(s.llmModel, llm);
    keyEnv_ = new QLineEdit(s.apiKeyEnv, llm);
    keyEnv_->setToolTip(tr("The name of the environment variable that holds the API key. The key itself is never stored."));
    const bool keySet = !qgetenv(s.apiKeyEnv.toLocal8Bit()).isEmpty();
    llmForm->addRow(tr("Endpoint"), baseUrl_);
    llmForm->addRow(tr("Model"), model_);
    llmForm->addRow(tr("API key variable"), keyEnv_);
    llmForm->addRow(QString(), new QLabel(keySet ? tr("<i>the variable is set: it is used</i>")
                                                 : tr("<i>the variable is not set: the keychain's key is used</i>"), llm));
    apiKey_ = new QLineEdit(llm);
    apiKey_->setObjectName(QStringLiteral("apiKeyField"));
    apiKey_->setEchoMode(QLineEdit::Password);
    apiKey_->setPlaceholderText(tr("type a key to store it in the desktop keychain"));
    apiKey_->setToolTip(tr("Stored in the desktop keychain (Secret Service / KWallet), never in the settings, the\n"
                           "database or a log. The environment variable above wins when it is set (headless runs)."));
    forgetKey_ = new QCheckBox(tr("forget the key stored in the keychain"), llm);
    llmForm->addRow(tr("API key"), apiKey_);
    llmForm->addRow(QString(), forgetKey_);
    contextTokens_ = new QSpinBox(llm);
    contextTokens_->setRange(2048, 10'000'000);
    contextTokens_->setSingleStep(1024);
    contextTokens_->setSuffix(tr(" tokens"));
    contextTokens_->setValue(s.llmContextTokens);
    contextTokens_->setToolTip(tr("The model's context window. Prompts are assembled to fit it minus the reply's "
                                  "tokens; lower-priority parts (examples, reference, baseline) are dropped first."));
    maxTokens_ = new QSpinBox(llm);
    maxTokens_->setRange(256, 1'000'000);
    maxTokens_->setSingleStep(256);
    maxTokens_->setSuffix(tr(" tokens"));
    maxTokens_->setValue(s.llmMaxTokens);
    maxTokens_->setToolTip(tr("Tokens reserved for the reply (max_tokens). Reasoning models need more."));
    temperature_ = new QDoubleSpinBox(llm);
    temperature_->setRange(0, 2);
    temperature_->setSingleStep(0.1);
    temperature_->setValue(s.llmTemperature);
    llmForm->addRow(tr("Context window"), contextTokens_);
    llmForm->addRow(tr("Max reply tokens"), maxTokens_);
    llmForm->addRow(tr("Temperature"), temperature_);
    return llm;
}

QGroupBox* SettingsDialog::buildEvaluationGroup(const WorkbenchSettings& s, const QStringList& devices) {
    auto* general = new QGroupBox(tr("Evaluation and memory"), this);
    auto* form = new QFormLayout(general);
    device_ = new QComboBox(general);
    device_->addItem(tr("(default)"), QString());
    for (const auto& d : devices) device_->addItem(d, d);
    device_->setCurrentIndex(std::max(0, device_->findData(s.device)));
    auto* dbRow = new QHBoxLayout;
    dbPath_ = new QLineEdit(s.dbPath, general);
    dbPath_->setPlaceholderText(WorkbenchSettings::defaultDbPath());
    auto* browse = new QPushButton(tr("…"), general);
    browse->setObjectName(QStringLiteral("browseDatabase"));
    dbRow->addWidget(dbPath_, 1);
    dbRow->addWidget(browse);
    seeds_ = new QSpinBox(general);
    seeds_->setRange(1, 16);
    seeds_->setValue(s.seeds);
    timeout_ = new QDoubleSpinBox(general);
    timeout_->setRange(1, 3600);
    timeout_->setSuffix(tr(" s"));
    timeout_->setValue(s.evalTimeoutSeconds);
    form->addRow(tr("Device"), device_);
    form->addRow(tr("Memory database"), dbRow);
    dbInUse_ = new QLabel(general);
    dbInUse_->setObjectName(QStringLiteral("databaseInUse"));
    dbInUse_->setWordWrap(true);
    dbInUse_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    dbInUse_->hide();
    form->addRow(QString(), dbInUse_);
    form->addRow(tr("Seeds per case"), seeds_);
    form->addRow(tr("Evaluation timeout"), timeout_);
    connect(browse, &QPushButton::clicked, this, [this]() {
        const QString f = QFileDialog::getSaveFileName(this, tr("Memory database"), dbPath_->text(),
                                                       tr("SQLite (*.db *.sqlite);;All files (*)"), nullptr,
                                                       QFileDialog::DontConfirmOverwrite);
        if (!f.isEmpty()) dbPath_->setText(f);
    });
    return general;
}

QGroupBox* SettingsDialog::buildAgentGroup(const WorkbenchSettings& s) {
    auto* agent = new QGroupBox(tr("Agent"), this);
    auto* agentForm = new QFormLayout(agent);
    policy_ = new QComboBox(agent);
    policy_->addItems({QStringLiteral("builtin"), QStringLiteral("llm")});
    policy_->setCurrentText(s.policy);
    memoryMode_ = new QComboBox(agent);
    memoryMode_->addItems({QStringLiteral("adoption"), QStringLiteral("all_retrieved"), QStringLiteral("similarity"),
                           QStringLiteral("off")});
    memoryMode_->setCurrentText(s.memoryMode);
    budget_ = new QSpinBox(agent);
    budget_->setRange(1, 200);
    budget_->setValue(s.budget);
    patience_ = new QSpinBox(agent);
    patience_->setRange(1, 50);
    patience_->setValue(s.patience);
    target_ = new QDoubleSpinBox(agent);
    target_->setRange(0.05, 1.0);
    target_->setSingleStep(0.05);
    target_->setValue(s.targetRoofline);
    includePending_ = new QCheckBox(tr("let the agent read pending (unreviewed) experiences"), agent);
    includePending_->setChecked(s.includePending);
    agentForm->addRow(tr("Policy"), policy_);
    agentForm->addRow(tr("Memory mode"), memoryMode_);
    agentForm->addRow(tr("Budget (iterations)"), budget_);
    agentForm->addRow(tr("Patience"), patience_);
    agentForm->addRow(tr("Target roofline fraction"), target_);
    agentForm->addRow(QString(), includePending_);
    return agent;
}

WorkbenchSettings SettingsDialog::settings() const {
    WorkbenchSettings s = base_;
    s.llmBaseUrl = baseUrl_->text().trimmed();
    s.llmModel = model_->text().trimmed();
    s.apiKeyEnv = keyEnv_->text().trimmed();
    s.llmContextTokens = contextTokens_->value();
    // The reply may take at most three quarters of the window (as `sage run` enforces).
    s.llmMaxTokens = std::min(maxTokens_->value(), contextTokens_->value() * 3 / 4);
    s.llmTemperature = temperature_->value();
    s.device = device_->currentData().toString();
    if (!dbFromCommandLine_) s.dbPath = dbPath_->text().trimmed();
    s.seeds = seeds_->value();
    s.evalTimeoutSeconds = timeout_->value();
    s.policy = policy_->currentText();
    s.memoryMode = memoryMode_->currentText();
    s.budget = budget_->value();
    s.patience = patience_->value();
    s.targetRoofline = target_->value();
    s.includePending = includePending_->isChecked();
    return s;
}

void SettingsDialog::setDatabaseInUse(const QString& path, bool fromCommandLine) {
    dbFromCommandLine_ = fromCommandLine;
    if (fromCommandLine) {
        dbPath_->setText(path);
        dbPath_->setEnabled(false);
        if (auto* browse = findChild<QPushButton*>(QStringLiteral("browseDatabase"))) browse->setEnabled(false);
        dbInUse_->setText(tr("In use: %1, from --db on the command line. The setting applies when the workbench "
                             "starts without --db.").arg(path));
    } else {
        dbInUse_->setText(tr("In use: %1").arg(path));
    }
    dbInUse_->show();
}

QString SettingsDialog::newApiKey() const { return apiKey_->text().trimmed(); }
bool SettingsDialog::removeApiKey() const { return forgetKey_->isChecked(); }

} // namespace sage::ui
