; Inno Setup script for CiteDesk (untested: no Windows machine was available to us).
; Build the PyInstaller folder first on Windows:
;   .venv\Scripts\python -m PyInstaller --noconfirm packaging\pyinstaller\citedesk.spec
; make packaging\windows\citedesk.ico from resources\icons\citedesk-*.png (e.g. with ImageMagick:
;   magick resources\icons\citedesk-{16,32,48,256}.png packaging\windows\citedesk.ico), then
;   iscc packaging\windows\citedesk.iss
; which writes dist\CiteDesk-<version>-setup.exe. Keep AppVersion equal to citedesk_engine.__version__.

#define AppVersion "0.26.0"

[Setup]
AppId={{6B0E3C1A-7A44-4C59-9E57-2B7F4C0D1E11}
AppName=CiteDesk
AppVersion={#AppVersion}
AppPublisher=The CiteDesk developers
DefaultDirName={autopf}\CiteDesk
DefaultGroupName=CiteDesk
PrivilegesRequiredOverridesAllowed=dialog
OutputDir=..\..\dist
OutputBaseFilename=CiteDesk-{#AppVersion}-setup
SetupIconFile=citedesk.ico
UninstallDisplayIcon={app}\citedesk.exe
Compression=lzma2/max
SolidCompression=yes
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
LicenseFile=..\..\LICENSE

[Files]
Source: "..\..\dist\CiteDesk\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{group}\CiteDesk"; Filename: "{app}\citedesk.exe"
Name: "{autodesktop}\CiteDesk"; Filename: "{app}\citedesk.exe"; Tasks: desktopicon

[Tasks]
Name: "desktopicon"; Description: "Create a desktop shortcut"; Flags: unchecked

[Run]
Filename: "{app}\citedesk.exe"; Description: "Start CiteDesk"; Flags: nowait postinstall skipifsilent
