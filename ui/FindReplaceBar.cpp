#include "ui/FindReplaceBar.h"

#include <Qsci/qsciscintilla.h>

#include <QCheckBox>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QToolButton>
#include <QVBoxLayout>

namespace sage::ui {

FindReplaceBar::FindReplaceBar(QsciScintilla* editor, QWidget* parent) : QWidget(parent), editor_(editor) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    layout->setSpacing(2);
    auto* findRow = new QHBoxLayout;
    find_ = new QLineEdit(this);
    find_->setPlaceholderText(tr("Find"));
    find_->setClearButtonEnabled(true);
    auto button = [this](const QString& text, const QString& tip) {
        auto* b = new QToolButton(this);
        b->setText(text);
        b->setToolTip(tip);
        b->setAutoRaise(true);
        return b;
    };
    auto* prev = button(tr("▲"), tr("Find previous (Shift+Enter)"));
    auto* next = button(tr("▼"), tr("Find next (Enter)"));
    caseSensitive_ = new QCheckBox(tr("Aa"), this);
    caseSensitive_->setToolTip(tr("Match case"));
    wholeWord_ = new QCheckBox(tr("Word"), this);
    regex_ = new QCheckBox(tr(".*"), this);
    regex_->setToolTip(tr("Regular expression"));
    status_ = new QLabel(this);
    auto* close = button(tr("✕"), tr("Close (Esc)"));
    findRow->addWidget(find_, 1);
    findRow->addWidget(prev);
    findRow->addWidget(next);
    findRow->addWidget(caseSensitive_);
    findRow->addWidget(wholeWord_);
    findRow->addWidget(regex_);
    findRow->addWidget(status_);
    findRow->addWidget(close);
    layout->addLayout(findRow);

    replaceRow_ = new QWidget(this);
    auto* replaceRow = new QHBoxLayout(replaceRow_);
    replaceRow->setContentsMargins(0, 0, 0, 0);
    replace_ = new QLineEdit(replaceRow_);
    replace_->setPlaceholderText(tr("Replace with"));
    auto* one = button(tr("Replace"), tr("Replace this match and find the next"));
    auto* all = button(tr("All"), tr("Replace every match"));
    replaceRow->addWidget(replace_, 1);
    replaceRow->addWidget(one);
    replaceRow->addWidget(all);
    layout->addWidget(replaceRow_);

    connect(find_, &QLineEdit::returnPressed, this, [this]() { findNext(true); });
    connect(next, &QToolButton::clicked, this, [this]() { findNext(true); });
    connect(prev, &QToolButton::clicked, this, [this]() { findNext(false); });
    connect(one, &QToolButton::clicked, this, [this]() { replaceOne(); });
    connect(all, &QToolButton::clicked, this, [this]() { replaceAll(); });
    connect(close, &QToolButton::clicked, this, [this]() {
        hide();
        editor_->setFocus();
    });
    hide();
}

void FindReplaceBar::showFind() {
    replaceRow_->hide();
    show();
    if (editor_->hasSelectedText() && !editor_->selectedText().contains(QLatin1Char('\n')))
        find_->setText(editor_->selectedText());
    find_->setFocus();
    find_->selectAll();
}

void FindReplaceBar::showReplace() {
    showFind();
    replaceRow_->show();
}

bool FindReplaceBar::findNext(bool forward) {
    if (find_->text().isEmpty()) return false;
    int line = 0, index = 0;
    editor_->getCursorPosition(&line, &index);
    if (!forward && editor_->hasSelectedText()) {
        int l1, i1, l2, i2;
        editor_->getSelection(&l1, &i1, &l2, &i2);
        line = l1;
        index = i1;
    }
    const bool found = editor_->findFirst(find_->text(), regex_->isChecked(), caseSensitive_->isChecked(),
                                          wholeWord_->isChecked(), true, forward, line, index);
    status_->setText(found ? QString() : tr("not found"));
    return found;
}

bool FindReplaceBar::replaceOne() {
    if (!editor_->hasSelectedText() && !findNext(true)) return false;
    editor_->replace(replace_->text());
    return findNext(true);
}

int FindReplaceBar::replaceAll() {
    if (find_->text().isEmpty()) return 0;
    int count = 0;
    editor_->beginUndoAction();
    bool found = editor_->findFirst(find_->text(), regex_->isChecked(), caseSensitive_->isChecked(),
                                    wholeWord_->isChecked(), false, true, 0, 0);
    while (found && count < 100000) {
        editor_->replace(replace_->text());
        ++count;
        found = editor_->findNext();
    }
    editor_->endUndoAction();
    status_->setText(tr("%n replaced", nullptr, count));
    return count;
}

} // namespace sage::ui
