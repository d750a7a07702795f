// `sage-workbench`: the desktop GUI.
#include "sage_config.h"
#include "ui/MainWindow.h"

#include <QApplication>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName("sage-workbench");
    QApplication::setOrganizationName("SAGE");
    QApplication::setApplicationVersion(SAGE_VERSION);
    sage::ui::MainWindow window;
    window.show();
    return QApplication::exec();
}
