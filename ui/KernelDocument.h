// What the kernel editor's text belongs to, and whether it holds edits that are not saved
// anywhere. A text is saved either to a file the editor tracks (File → Open kernel / Save as) or,
// without a file, to the open task's draft (<app data>/drafts/<task>.cpp), which opening the task
// loads again. Switching tasks or loading another text asks first when there are unsaved edits.
#pragma once

#include <QString>

namespace sage::ui {

class KernelDocument {
public:
    // A text was loaded (or saved): it is the saved state. `file` empty: the task's draft, if any.
    void loaded(const QString& text, const QString& task, const QString& file = {});
    bool modified(const QString& currentText) const { return currentText != saved_; }
    QString file() const { return file_; }
    QString task() const { return task_; }
    // Where Save writes: the tracked file, else the task's draft; empty without either.
    QString saveTarget() const;
    // Writes the text to saveTarget() (or to `file`, which becomes the tracked file).
    // On failure *error says what and where and nothing changes.
    bool save(const QString& text, QString* error, const QString& file = {});

    // Writes the text to the task's draft without changing what this document tracks.
    bool keepAsDraft(const QString& text, QString* error) const;

    static QString draftPath(const QString& task);  // empty for an empty task name
    static QString readDraft(const QString& task);  // empty when there is no draft

private:
    QString saved_, task_, file_;
};

} // namespace sage::ui
