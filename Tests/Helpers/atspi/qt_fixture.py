#!/usr/bin/python3
"""A PyQt5 window with the same controls as fixture.py, for the AT-SPI bridge's tests with Qt.

    /usr/bin/python3 qt_fixture.py [--lifetime SECONDS]

The application is named "narrator-qt-fixture" on the accessibility bus (Qt finds the bus through
the X root window's AT_SPI_BUS property). Its window, "Narrator Qt fixture", holds a Save button,
a "Remember me" check box (checked), a line edit "Ada" whose buddy label is "Name", a Volume
slider from 0 to 100 at 40, and a Print button that is disabled. Prints {"ready": true} once
shown, {"clicked": "Save"} when Save is pressed; exits after --lifetime seconds or on SIGTERM.
"""

import argparse
import json
import signal
import sys


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--lifetime", type=float, default=120)
    a = p.parse_args()

    from PyQt5.QtCore import QTimer
    from PyQt5.QtWidgets import (QApplication, QCheckBox, QFormLayout, QLabel, QLineEdit, QPushButton, QSlider,
                                 QVBoxLayout, QWidget)
    from PyQt5.QtCore import Qt

    app = QApplication(["narrator-qt-fixture"])
    app.setApplicationName("narrator-qt-fixture")
    win = QWidget()
    win.setWindowTitle("Narrator Qt fixture")
    layout = QVBoxLayout(win)
    save = QPushButton("Save")
    save.clicked.connect(lambda: print(json.dumps({"clicked": "Save"}), flush=True))
    layout.addWidget(save)
    remember = QCheckBox("Remember me")
    remember.setChecked(True)
    layout.addWidget(remember)
    form = QFormLayout()
    name = QLineEdit("Ada")
    label = QLabel("&Name")
    label.setBuddy(name)
    form.addRow(label, name)
    layout.addLayout(form)
    volume = QSlider(Qt.Horizontal)
    volume.setRange(0, 100)
    volume.setValue(40)
    volume.setAccessibleName("Volume")
    layout.addWidget(volume)
    printing = QPushButton("Print")
    printing.setEnabled(False)
    layout.addWidget(printing)
    win.show()
    QTimer.singleShot(0, lambda: print(json.dumps({"ready": True}), flush=True))
    QTimer.singleShot(int(a.lifetime * 1000), app.quit)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    timer = QTimer()  # lets Python handle SIGTERM while Qt's loop runs
    timer.start(200)
    timer.timeout.connect(lambda: None)
    sys.exit(app.exec_())


if __name__ == "__main__":
    main()
