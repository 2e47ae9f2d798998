"""Synthetic summary-sentence rows for the claim verifier: faithful and unfaithful compressions.

    python training/verifier/compress.py    # after prepare.py and parse.py; adds source "compress"

Why: a small generator answers by copying and shortening passage sentences, and its mistakes are of the
same form as its good answers: a clause cut in the wrong place ("the man who attacked a machete"), a
head noun dropped ("a county championship finds himself..."), a word swapped. Every content word of such
a claim is in the passage, so the lexical alignment vouches for it, and VitaminC/HaluEval never taught
the verifier to read structure. This builds both kinds from our own parsed training sentences
(parse.py), so the two labels share their form and only the edit tells them apart:

- supported: 1-3 deletions of what a dependency parse marks as optional (adjectives, adverbs,
  adjunct prepositional phrases, appositions, comma-set relative or adverbial clauses, a coordinated
  item or trailing clause), or the reported clause of "X said that ...".
- unsupported: 0-2 such deletions plus one damaging edit: a contiguous cut across constituents that
  leaves a word without its head, a dropped head noun, a dropped core argument or "of" complement,
  a dropped scope word (not, only, former, ...), a content word swapped for another of the same tag,
  or two arguments swapped.

Half the rows are lowercased (evidence and claim together). Train rows come from training groups, val
rows from validation groups (parse.py keeps the split). Rewrites the "compress" rows of
training/data/verifier/{train,val}.jsonl and leaves the other sources as they are.
"""

from __future__ import annotations

import json
import random
import re
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "reranker"))
from common import SEED, VERIFIER_PREPARED, read_jsonl, write_jsonl  # noqa: E402

PARSED = VERIFIER_PREPARED / "parsed.jsonl"
SOURCE = "compress"
SUPPORTED, REFUTED, NOT_ENOUGH = 0, 1, 2
# Words whose removal changes what a sentence claims: never dropped as "optional", dropped on purpose
# as a damaging edit.
SCOPE_WORDS = frozenset(
    "not n't never no nor only just almost nearly hardly barely scarcely rarely seldom less more most least "
    "former ex alleged allegedly fake false supposed supposedly reportedly possibly probably perhaps maybe "
    "likely unlikely first last previous next late early acting interim potential future past partly "
    "partially mostly largely mainly without except than".split()
)
REPORT_VERBS = frozenset(
    "said says say reported reports told claimed claims added announced stated revealed believes believed "
    "warned insisted".split()
)
ARG_DEPS = ("nsubj", "nsubjpass", "dobj", "pobj")
PUNCT = set(",.;:!?)")


@dataclass
class Sentence:
    words: list[str]
    space: list[bool]
    dep: list[str]
    head: list[int]
    pos: list[str]
    tag: list[str]

    def __post_init__(self) -> None:
        self.children = [[] for _ in self.words]
        for i, h in enumerate(self.head):
            if h != i:
                self.children[h].append(i)

    def subtree(self, i: int) -> set[int]:
        out, todo = set(), [i]
        while todo:
            j = todo.pop()
            out.add(j)
            todo += self.children[j]
        return out

    def render(self, keep: set[int], words: list[str] | None = None) -> str:
        words = words or self.words
        idx = sorted(keep)
        out = []
        for k, i in enumerate(idx):
            out.append(words[i])
            if k + 1 < len(idx):
                j = idx[k + 1]
                out.append(
                    (" " if self.space[i] else "") if j == i + 1 else ("" if words[j] in PUNCT else " ")
                )
        text = "".join(out)
        text = re.sub(r"\s*,(\s*[,.;:])", r"\1", text)
        text = re.sub(r"\(\s*\)", "", text)
        text = re.sub(r"^[\s,;:.-]+", "", text)
        text = re.sub(r"[\s,;:-]+([.!?]?)$", r"\1", text)
        return re.sub(r"\s+", " ", text).strip()


def contiguous(ix: set[int]) -> bool:
    return bool(ix) and max(ix) - min(ix) + 1 == len(ix)


def with_commas(s: Sentence, span: set[int]) -> set[int]:
    """A comma-set phrase goes with the comma before it (and the one after when both are there)."""
    lo, hi = min(span), max(span)
    span = set(span)
    if lo > 0 and s.words[lo - 1] == ",":
        span.add(lo - 1)
        if hi + 1 < len(s.words) and s.words[hi + 1] == ",":
            span.add(hi + 1)
    return span


ORDINAL = re.compile(
    r"^(\d+(st|nd|rd|th)|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|\w+teenth|\w+ieth)$", re.I
)


def plain_adjective(s: Sentence, i: int) -> bool:
    """An adjective that only narrows its noun: not part of a name ("Minor League", "martial arts"),
    not capitalised mid-sentence, not an ordinal or a number."""
    w = s.words[i]
    return (
        s.dep[s.head[i]] != "compound"
        and not (i > 0 and w[:1].isupper())
        and not ORDINAL.match(w)
        and not any(ch.isdigit() for ch in w)
    )


def optional_spans(s: Sentence) -> list[set[int]]:
    """Deletions a careful editor could make without changing what the sentence claims."""
    n, out = len(s.words), []
    for i, d in enumerate(s.dep):
        h = s.head[i]
        if h == i:
            continue
        sub = s.subtree(i)
        if not contiguous(sub) or len(sub) > n // 2 or any(s.words[j].lower() in SCOPE_WORDS for j in sub):
            continue
        lo = min(sub)
        after_comma = lo > 0 and s.words[lo - 1] == ","
        head_pos = s.pos[h]
        if (
            d == "amod"
            and s.pos[i] == "ADJ"
            and len(sub) <= 2
            and head_pos in ("NOUN", "PROPN")
            and plain_adjective(s, i)
        ):
            out.append(sub)
        elif d == "advmod" and len(sub) <= 3 and head_pos in ("VERB", "AUX", "ADJ"):
            out.append(with_commas(s, sub) if after_comma else sub)
        elif (
            d == "prep"
            and s.words[i].lower() not in ("of", "as", "like")
            and (head_pos in ("VERB", "AUX") or (head_pos in ("NOUN", "PROPN") and i > h))
        ):
            if len(sub) >= 2:
                out.append(with_commas(s, sub) if after_comma else sub)
        elif d in ("appos", "npadvmod", "parataxis") or (d in ("relcl", "acl", "advcl") and after_comma):
            out.append(with_commas(s, sub))
        elif d == "conj":
            cc = [c for c in s.children[h] if s.dep[c] == "cc" and c < i]
            span = sub | set(cc)
            if cc and contiguous(span | set(range(min(span), max(span) + 1))):
                span = set(range(min(span), max(span) + 1))
                if min(span) > 0 and s.words[min(span) - 1] == ",":
                    span.add(min(span) - 1)
                if len(span) <= n // 2:
                    out.append(span)
    return out


def reported_clause(s: Sentence) -> set[int] | None:
    """'X said (that) Y.' -> the tokens of Y (news summaries state the reported clause as fact)."""
    root = next((i for i, h in enumerate(s.head) if h == i), None)
    if root is None or s.words[root].lower() not in REPORT_VERBS:
        return None
    for c in s.children[root]:
        if s.dep[c] == "ccomp":
            sub = s.subtree(c)
            sub -= {j for j in sub if s.dep[j] == "mark" and s.words[j].lower() == "that"}
            if contiguous(sub) and len(sub) >= 6:
                return sub
    return None


def orphans(s: Sentence, cut: set[int]) -> int:
    """Kept words whose head was cut: the sentence now attaches them to something else."""
    return sum(1 for i in range(len(s.words)) if i not in cut and s.head[i] in cut and s.head[i] != i)


def damaging_edits(s: Sentence, rng: random.Random, vocab: dict[str, list[str]]):
    """(name, label, touched, edited) candidates in random order; the caller takes the first that renders
    well. `touched` are the tokens cut (or, for a substitution, the one replaced: it must survive the
    optional deletions); `edited` is the new word list, or a reordered Sentence for a swap."""
    n = len(s.words)
    edits = []
    # a contiguous cut across constituents (what a summariser's splice looks like)
    for _ in range(6):
        length = rng.randint(2, 7)
        a = rng.randint(1, max(1, n - length - 1))
        cut = set(range(a, min(n - 1, a + length)))
        if cut and s.words[a] not in PUNCT and orphans(s, cut):
            edits.append(("splice", NOT_ENOUGH, cut, None))
            break
    # a head noun dropped, its left modifiers kept ("a county championship [winner]")
    heads = [
        i
        for i in range(n)
        if s.pos[i] in ("NOUN", "PROPN")
        and s.head[i] != i
        and any(s.dep[c] in ("compound", "amod", "poss") and c < i for c in s.children[i])
    ]
    if heads:
        i = rng.choice(heads)
        cut = {i} | {j for c in s.children[i] if c > i for j in s.subtree(c)}
        edits.append(("head", NOT_ENOUGH, cut, None))
    # a core argument or an "of" complement dropped
    # (not the main clause's subject: a sentence starting with its verb gives itself away by form)
    args = [
        i
        for i in range(n)
        if (s.dep[i] == "dobj" or (s.dep[i] in ("nsubj", "nsubjpass") and s.head[s.head[i]] != s.head[i]))
        and contiguous(s.subtree(i))
        and len(s.subtree(i)) < n // 2
    ]
    ofs = [
        i
        for i in range(n)
        if s.dep[i] == "prep"
        and s.words[i].lower() == "of"
        and s.pos[s.head[i]] in ("NOUN", "PRON", "NUM")
        and contiguous(s.subtree(i))
    ]
    if args:
        edits.append(("argument", NOT_ENOUGH, s.subtree(rng.choice(args)), None))
    if ofs:
        edits.append(("of", NOT_ENOUGH, s.subtree(rng.choice(ofs)), None))
    # a scope word dropped
    scope = [
        i
        for i in range(n)
        if s.words[i].lower() in SCOPE_WORDS and s.dep[i] in ("neg", "advmod", "amod", "det", "preconj")
    ]
    if scope:
        edits.append(("scope", REFUTED, {rng.choice(scope)}, None))
    # a content word swapped for another of the same fine tag
    subs = [i for i in range(1, n) if s.pos[i] in ("NOUN", "ADJ", "VERB", "PROPN") and vocab.get(s.tag[i])]
    if subs:
        i = rng.choice(subs)
        present = {w.lower() for w in s.words}
        for _ in range(5):
            w = rng.choice(vocab[s.tag[i]])
            if w.lower() not in present:
                words = list(s.words)
                words[i] = w
                edits.append(("substitute", REFUTED, {i}, words))
                break
    # two arguments swapped ("the heat on successor X" -> "the heat on X's successor"-like role changes)
    spans = [
        s.subtree(i)
        for i in range(n)
        if s.dep[i] in ARG_DEPS and contiguous(s.subtree(i)) and len(s.subtree(i)) <= 5
    ]
    pairs = [
        (a, b) for a in spans for b in spans if max(a) < min(b) and s.render(a).lower() != s.render(b).lower()
    ]
    if pairs:
        a, b = rng.choice(pairs)
        order = (
            list(range(min(a)))
            + sorted(b)
            + list(range(max(a) + 1, min(b)))
            + sorted(a)
            + list(range(max(b) + 1, n))
        )
        words = [s.words[j] for j in order]
        space = [s.space[j] for j in order]
        for k in range(len(order) - 1):  # a moved span keeps the spacing of the place it moved to
            space[k] = space[k] or s.words[order[k + 1]] not in PUNCT and (order[k + 1] != order[k] + 1)
        swapped = Sentence(words, space, s.dep, s.head, s.pos, s.tag)
        edits.append(("swap", REFUTED, set(), swapped))
    rng.shuffle(edits)
    return edits


def pick_optional(spans: list[set[int]], k: int, avoid: set[int], rng: random.Random) -> set[int]:
    """Up to k disjoint optional deletions, none touching `avoid`."""
    cut: set[int] = set()
    for span in rng.sample(spans, len(spans)):
        if k <= 0:
            break
        if not span & (cut | avoid):
            cut |= span
            k -= 1
    return cut


def rows_for(s: Sentence, rec: dict, uid: str, rng: random.Random, vocab) -> list[dict]:
    n = len(s.words)
    full = set(range(n))
    evidence = s.render(full)
    spans = optional_spans(s)
    out = []
    # supported: 1-3 optional deletions (or the reported clause)
    claim = None
    rep = reported_clause(s)
    if rep and rng.random() < 0.25:
        claim = s.render(rep)
    elif spans:
        claim = s.render(full - pick_optional(spans, rng.choice([1, 1, 2, 2, 3]), set(), rng))
    if claim and claim != evidence and len(claim.split()) >= 5:
        out.append(("optional", SUPPORTED, claim))
    # unsupported: one damaging edit, plus 0-2 optional deletions elsewhere
    for name, label, touched, edited in damaging_edits(s, rng, vocab):
        if isinstance(edited, Sentence):
            claim = edited.render(full)
        else:
            extra = pick_optional(
                spans, rng.choice([0, 1, 2]), {j for c in touched for j in (c - 1, c, c + 1)}, rng
            )
            cut = set() if edited else touched
            claim = s.render(full - cut - extra, edited)
        if claim and claim != evidence and len(claim.split()) >= 5 and claim.lower() != evidence.lower():
            out.append((name, label, claim))
            break
    lower = rng.random() < 0.5
    rows = []
    for k, (name, label, claim) in enumerate(out):
        ev, cl = (evidence.lower(), claim.lower()) if lower else (evidence, claim)
        rows.append(
            {
                "id": f"{uid}-{k}",
                "source": SOURCE,
                "group": rec["group"],
                "evidence": ev,
                "question": "",
                "claim": cl,
                "label": label,
                "edit": name,
            }
        )
    return rows


def main() -> None:
    rng = random.Random(f"{SEED}:compress")
    parsed = read_jsonl(PARSED)
    vocab: dict[str, list[str]] = {}
    for rec in parsed:
        if rec["split"] == "train":
            for w, t, p in zip(rec["words"], rec["tag"], rec["pos"], strict=True):
                if p in ("NOUN", "ADJ", "VERB", "PROPN") and w.isalpha():
                    vocab.setdefault(t, []).append(w)
    vocab = {t: sorted(set(ws)) for t, ws in vocab.items()}
    made = {"train": [], "val": []}
    for k, rec in enumerate(parsed):
        s = Sentence(rec["words"], rec["space"], rec["dep"], rec["head"], rec["pos"], rec["tag"])
        made[rec["split"]] += rows_for(s, rec, f"cmp-{rec['split']}-{k}", rng, vocab)
    stats = {}
    for split in ("train", "val"):
        path = VERIFIER_PREPARED / f"{split}.jsonl"
        kept = [r for r in read_jsonl(path) if r["source"] != SOURCE]
        write_jsonl(path, kept + made[split])
        stats[split] = {"rows": len(made[split]), "by_edit": dict(Counter(r["edit"] for r in made[split]))}
        print(f"{split}: {len(made[split])} compress rows, {dict(Counter(r['edit'] for r in made[split]))}")
    stats_path = VERIFIER_PREPARED / "stats.json"
    all_stats = json.loads(stats_path.read_text()) if stats_path.exists() else {}
    all_stats[SOURCE] = stats
    stats_path.write_text(json.dumps(all_stats, indent=1))


if __name__ == "__main__":
    main()
