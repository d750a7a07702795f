#include "ui/MainWindow.h"

#include <QLabel>
#include <QStatusBar>

namespace sage::ui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle(tr("SAGE Kernel Workbench"));
    setObjectName("SageMainWindow");
    auto* label = new QLabel(tr("SAGE Kernel Workbench"), this);
    label->setAlignment(Qt::AlignCenter);
    setCentralWidget(label);
    statusBar()->showMessage(tr("Ready"));
    resize(1400, 900);
}

} // namespace sage::ui
