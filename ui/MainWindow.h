// The workbench's main window: hosts the dockable panels.
#pragma once

#include <QMainWindow>

namespace sage::ui {

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
};

} // namespace sage::ui
