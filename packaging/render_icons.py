"""Render resources/icons/citedesk.svg into the PNG sizes the freedesktop icon theme spec, Windows
(.ico) and macOS (.icns) builds ask for. Run by hand after changing the artwork:

    QT_QPA_PLATFORM=offscreen .venv/bin/python packaging/render_icons.py
"""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

ICONS = Path(__file__).resolve().parents[1] / "resources" / "icons"
SIZES = (16, 22, 24, 32, 48, 64, 128, 256, 512)


def main() -> int:
    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])  # noqa: F841 (Qt needs one)
    renderer = QSvgRenderer(str(ICONS / "citedesk.svg"))
    if not renderer.isValid():
        print("cannot read citedesk.svg", file=sys.stderr)
        return 1
    for size in SIZES:
        image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        renderer.render(painter)
        painter.end()
        target = ICONS / f"citedesk-{size}.png"
        image.save(str(target))
        print(target)
    return 0


if __name__ == "__main__":
    sys.exit(main())
