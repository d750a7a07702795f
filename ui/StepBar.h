// The header row and the table of a panel that steps through a list (the diagnostics, the
// verification mismatches): one shape, so the two panels look and behave alike.
#pragma once

#include <QString>

class QAbstractItemModel;
class QBoxLayout;
class QLabel;
class QTableView;
class QToolButton;

namespace sage::ui {

struct StepButtons {
    QToolButton* previous = nullptr;
    QToolButton* next = nullptr;
};

struct StepBarText {
    QString previous, previousTip, next, nextTip;
};

// Adds a row to `layout`: `title` takes the width, then a previous and a next button (children of
// the title's parent). The caller connects the buttons.
StepButtons addStepBar(QBoxLayout* layout, QLabel* title, const StepBarText& text);

// Sets `view` up to show `model` one whole row selected at a time, rows `rowHeight` pixels high.
void setUpRowTable(QTableView* view, QAbstractItemModel* model, const QString& objectName, int rowHeight);

} // namespace sage::ui
