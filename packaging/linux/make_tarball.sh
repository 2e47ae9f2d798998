#!/bin/sh
# Turn the PyInstaller folder dist/CiteDesk into dist/CiteDesk-<version>-linux-x86_64.tar.gz with an
# install script (per user, no root): the app in ~/.local/lib/citedesk, the `citedesk` command in
# ~/.local/bin, the menu entry, AppStream metadata and icons in ~/.local/share.
# (An AppImage would need appimagetool, which no package registry we may use ships.)
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
APP_ID=io.github.citedesk.CiteDesk
VERSION=$(sed -n 's/^__version__ = "\(.*\)"$/\1/p' "$ROOT/engine/citedesk_engine/__init__.py")
FROZEN="$ROOT/dist/CiteDesk"
NAME="CiteDesk-$VERSION-linux-$(uname -m)"
STAGE="$ROOT/dist/$NAME"

test -x "$FROZEN/citedesk" || { echo "build the app first: make package" >&2; exit 1; }
rm -rf "$STAGE"
mkdir -p "$STAGE/share/applications" "$STAGE/share/metainfo"
cp -a "$FROZEN" "$STAGE/CiteDesk"
cp "$ROOT/packaging/linux/$APP_ID.desktop" "$STAGE/share/applications/"
cp "$ROOT/packaging/linux/$APP_ID.metainfo.xml" "$STAGE/share/metainfo/"
for png in "$ROOT"/resources/icons/citedesk-*.png; do
    size=$(basename "$png" .png | sed 's/citedesk-//')
    mkdir -p "$STAGE/share/icons/hicolor/${size}x${size}/apps"
    cp "$png" "$STAGE/share/icons/hicolor/${size}x${size}/apps/$APP_ID.png"
done
mkdir -p "$STAGE/share/icons/hicolor/scalable/apps"
cp "$ROOT/resources/icons/citedesk.svg" "$STAGE/share/icons/hicolor/scalable/apps/$APP_ID.svg"
cp "$ROOT/packaging/linux/install.sh" "$STAGE/install.sh"
chmod +x "$STAGE/install.sh"
tar -C "$ROOT/dist" -czf "$ROOT/dist/$NAME.tar.gz" "$NAME"
rm -rf "$STAGE"
echo "$ROOT/dist/$NAME.tar.gz"
