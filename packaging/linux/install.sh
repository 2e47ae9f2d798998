#!/bin/sh
# Install CiteDesk for this user (no root): run from the unpacked tarball. `./install.sh --uninstall`
# removes it again (your libraries and settings stay in ~/.local/share/CiteDesk and ~/.config).
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
PREFIX=${PREFIX:-$HOME/.local}
APP_ID=io.github.citedesk.CiteDesk

if [ "${1:-}" = "--uninstall" ]; then
    rm -rf "$PREFIX/lib/citedesk" "$PREFIX/bin/citedesk"
    rm -f "$PREFIX/share/applications/$APP_ID.desktop" "$PREFIX/share/metainfo/$APP_ID.metainfo.xml"
    find "$PREFIX/share/icons/hicolor" -name "$APP_ID.*" -delete 2>/dev/null || true
    echo "CiteDesk removed."
    exit 0
fi

mkdir -p "$PREFIX/lib" "$PREFIX/bin"
rm -rf "$PREFIX/lib/citedesk"
cp -a "$HERE/CiteDesk" "$PREFIX/lib/citedesk"
ln -sf "$PREFIX/lib/citedesk/citedesk" "$PREFIX/bin/citedesk"
cp -a "$HERE/share/." "$PREFIX/share/"
sed -i "s|^Exec=citedesk|Exec=$PREFIX/bin/citedesk|; s|^TryExec=citedesk|TryExec=$PREFIX/bin/citedesk|" \
    "$PREFIX/share/applications/$APP_ID.desktop"
command -v update-desktop-database >/dev/null && update-desktop-database -q "$PREFIX/share/applications" || true
command -v gtk-update-icon-cache >/dev/null && gtk-update-icon-cache -q "$PREFIX/share/icons/hicolor" || true
echo "CiteDesk installed: run 'citedesk' (in $PREFIX/bin) or find it in your applications menu."
echo "Check it with: $PREFIX/bin/citedesk --self-test"
