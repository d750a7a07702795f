// Edits an experience's text and trigger; produces the ExperiencePatch of the changed fields.
#pragma once

#include "sage_memory/ExperiencePatch.h"

#include <QDialog>

class QComboBox;
class QLineEdit;
class QPlainTextEdit;

namespace sage::ui {

class ExperienceEditDialog : public QDialog {
    Q_OBJECT
public:
    explicit ExperienceEditDialog(const memory::Experience& experience, QWidget* parent = nullptr);
    memory::ExperiencePatch patch() const;  // only the fields that changed
    QString reason() const;

private:
    memory::Experience original_;
    QLineEdit *title_, *category_, *diagnostic_, *bottleneck_, *evidence_, *reason_;
    QComboBox *kind_, *stage_;
    QPlainTextEdit *content_, *idiom_;
};

} // namespace sage::ui
