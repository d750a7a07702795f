// The editor's find/replace bar (Ctrl+F / Ctrl+H): find next/previous, replace, replace all,
// case-sensitive, whole word, regular expression.
#pragma once

#include <QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;
class QsciScintilla;

namespace sage::ui {

class FindReplaceBar : public QWidget {
    Q_OBJECT
public:
    explicit FindReplaceBar(QsciScintilla* editor, QWidget* parent = nullptr);
    void showFind();
    void showReplace();
    bool findNext(bool forward = true);
    int replaceAll();
    QLineEdit* findField() const { return find_; }
    QLineEdit* replaceField() const { return replace_; }

private:
    bool replaceOne();
    QsciScintilla* editor_;
    QLineEdit *find_, *replace_;
    QCheckBox *caseSensitive_, *wholeWord_, *regex_;
    QLabel* status_;
    QWidget* replaceRow_;
};

} // namespace sage::ui
