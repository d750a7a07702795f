#include "ui/StepBar.h"

#include <QBoxLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QToolButton>

namespace sage::ui {

StepButtons addStepBar(QBoxLayout* layout, QLabel* title, const StepBarText& text) {
    auto* bar = new QHBoxLayout;
    StepButtons buttons{new QToolButton(title->parentWidget()), new QToolButton(title->parentWidget())};
    buttons.previous->setText(text.previous);
    buttons.previous->setToolTip(text.previousTip);
    buttons.next->setText(text.next);
    buttons.next->setToolTip(text.nextTip);
    bar->addWidget(title, 1);
    bar->addWidget(buttons.previous);
    bar->addWidget(buttons.next);
    layout->addLayout(bar);
    return buttons;
}

void setUpRowTable(QTableView* view, QAbstractItemModel* model, const QString& objectName, int rowHeight) {
    view->setObjectName(objectName);
    view->setModel(model);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->verticalHeader()->setDefaultSectionSize(rowHeight);
}

} // namespace sage::ui
