#include "ui/ExperienceEditDialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QVBoxLayout>

namespace sage::ui {

namespace {
template <class E> QComboBox* enumCombo(E current, QWidget* parent) {
    auto* box = new QComboBox(parent);
    for (auto name : memory::EnumNames<E>::names) box->addItem(QString::fromUtf8(name.data(), qsizetype(name.size())));
    box->setCurrentIndex(int(current));
    return box;
}
} // namespace

ExperienceEditDialog::ExperienceEditDialog(const memory::Experience& e, QWidget* parent)
    : QDialog(parent), original_(e) {
    setWindowTitle(tr("Edit experience #%1").arg(e.id));
    resize(640, 560);
    auto* layout = new QVBoxLayout(this);
    auto* form = new QFormLayout;
    title_ = new QLineEdit(QString::fromStdString(e.title), this);
    kind_ = enumCombo(e.kind, this);
    stage_ = enumCombo(e.stage, this);
    category_ = new QLineEdit(QString::fromStdString(e.trigger.category), this);
    diagnostic_ = new QLineEdit(QString::fromStdString(e.trigger.diagnostic), this);
    bottleneck_ = new QLineEdit(QString::fromStdString(e.trigger.bottleneck), this);
    content_ = new QPlainTextEdit(QString::fromStdString(e.content), this);
    idiom_ = new QPlainTextEdit(QString::fromStdString(e.codeIdiom), this);
    idiom_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    idiom_->setMaximumHeight(110);
    evidence_ = new QLineEdit(QString::fromStdString(e.evidencePattern), this);
    reason_ = new QLineEdit(this);
    reason_->setPlaceholderText(tr("why (kept in the revision history)"));
    form->addRow(tr("Title"), title_);
    form->addRow(tr("Kind"), kind_);
    form->addRow(tr("Stage"), stage_);
    form->addRow(tr("Trigger category"), category_);
    form->addRow(tr("Trigger diagnostic"), diagnostic_);
    form->addRow(tr("Trigger bottleneck"), bottleneck_);
    form->addRow(tr("Content (markdown)"), content_);
    form->addRow(tr("Code idiom"), idiom_);
    form->addRow(tr("Evidence pattern"), evidence_);
    form->addRow(tr("Reason"), reason_);
    layout->addLayout(form);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
}

memory::ExperiencePatch ExperienceEditDialog::patch() const {
    memory::ExperiencePatch p;
    auto text = [](const QString& now, const std::string& before, std::optional<std::string>& field) {
        if (now.toStdString() != before) field = now.toStdString();
    };
    text(title_->text(), original_.title, p.title);
    text(category_->text(), original_.trigger.category, p.category);
    text(diagnostic_->text(), original_.trigger.diagnostic, p.diagnostic);
    text(bottleneck_->text(), original_.trigger.bottleneck, p.bottleneck);
    text(content_->toPlainText(), original_.content, p.content);
    text(idiom_->toPlainText(), original_.codeIdiom, p.codeIdiom);
    text(evidence_->text(), original_.evidencePattern, p.evidencePattern);
    if (kind_->currentIndex() != int(original_.kind)) p.kind = memory::ExperienceKind(kind_->currentIndex());
    if (stage_->currentIndex() != int(original_.stage)) p.stage = memory::Stage(stage_->currentIndex());
    return p;
}

QString ExperienceEditDialog::reason() const { return reason_->text(); }

} // namespace sage::ui
