"""How retrieval should fuse: the lexical / vector weights of score fusion, and how much the reranker's
scores count against the fused ones. Run by hand:

    .venv/bin/python benchmarks/fusion_study.py heldout     # chooses the weights (our own data)
    .venv/bin/python benchmarks/fusion_study.py squad-dev   # reports them on shared/eval, never chooses

`heldout` builds two question sets from SQuAD-Shifts (fetched into training/data/raw by
training/reranker/prepare.py): new_wiki (12 articles) and amazon_reviews (80 products). Each corpus
holds the articles that the reranker's validation split kept out of its training (prepare.is_val)
plus seeded other articles of the same file as distractors; the up to 400 questions (seeded) are
asked only about the held-out articles, so the packaged reranker never trained on them or on their
passages. Each question runs the engine's retrievers once (pool 50); every fusion below is then
computed by the engine's own functions (fusion.score_fuse, fusion.rrf_fuse, fusion.blend) with the
packaged reranker scoring each head of 10. The weights chosen are those with the best mean Recall@1
over the held-out sets (ties: the higher MRR).

Measured 2026-11-30 (heldout: 146 s, squad-dev: 72 s on 2 cores), Recall@1:

    held out (wiki 364 q / amazon 400 q)   lexical 0.841 / 0.347, vector 0.643 / 0.245, rrf 0.786 / 0.335
      score fusion, vector weight 0.3      0.865 / 0.365 (chosen: best mean of 0.0-1.0)
      + rerank weight 0.5                  0.874 / 0.412 (chosen: best mean of 0.0-1.0)
    squad-dev (400 answerable)             lexical 0.802, vector 0.675, rrf 0.777
      score fusion, vector weight 0.3      0.835 (0.4 would give 0.853: not chosen, this is not our data)
      + rerank weight 0.5                  0.830 (R@5 0.978, MRR 0.893); 0.1 would give 0.848
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from citedesk_engine import Config, Engine
from citedesk_engine.config import RetrievalConfig
from citedesk_engine.evaluate.questions import GoldIndex, overlaps, read_questions
from citedesk_engine.retrieve.fusion import blend, rrf_fuse, score_fuse
from citedesk_engine.types import Passage

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
RAW = ROOT / "training" / "data" / "raw" / "squad_shifts"
SEED = 20240611
HEAD = 10
VECTOR_WEIGHTS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 1.0)
RERANK_WEIGHTS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.7, 1.0)
Hits = dict[str, list[tuple[str, float]]]


@dataclass
class Asked:
    """One question's retriever lists, the units that overlap its gold passage, and a rerank cache."""

    question: str
    lists: Hits
    gold: set[str]
    texts: dict[str, str]
    rerank: dict[str, float]


def is_val(group: str) -> bool:
    """The reranker's validation rule (training/reranker/prepare.py: 8 % of groups by hash)."""
    return int(hashlib.sha256(f"{SEED}:{group}".encode()).hexdigest(), 16) % 100 < 8


def build_heldout(source: str, articles: int, out: Path, limit: int = 400) -> tuple[Path, Path]:
    """A corpus folder (one text file per article: title, blank line, paragraphs) and a questions.jsonl
    in the squad-dev format, asked only about the articles the reranker held out."""
    data = json.loads((RAW / source).read_text(encoding="utf-8"))["data"]
    rng = random.Random(f"{SEED}:{source}")
    held = [a for a in data if is_val(a["title"])]
    others = sorted((a for a in data if not is_val(a["title"])), key=lambda a: a["title"])
    rng.shuffle(others)
    chosen = held + others[: max(0, articles - len(held))]
    corpus = out / "corpus"
    corpus.mkdir(parents=True)
    questions = []
    for article in chosen:
        name = re.sub(r"\W+", "_", article["title"])[:60] + ".txt"
        paragraphs = [p["context"].strip() for p in article["paragraphs"]]
        title = article["title"].replace("_", " ")
        (corpus / name).write_text(title + "\n\n" + "\n\n".join(paragraphs) + "\n", encoding="utf-8")
        if article not in held:
            continue
        for paragraph in article["paragraphs"]:
            for qa in paragraph["qas"]:
                text = qa["question"].strip()
                if text:
                    questions.append(
                        {
                            "id": qa["id"],
                            "question": text[0].upper() + text[1:] + ("" if text.endswith("?") else "?"),
                            "answers": sorted({a["text"] for a in qa["answers"]}),
                            "gold": {"document": name, "passage": paragraph["context"].strip()},
                        }
                    )
    rng.shuffle(questions)
    path = out / "questions.jsonl"
    path.write_text("".join(json.dumps(q) + "\n" for q in questions[:limit]), encoding="utf-8")
    print(f"{source}: {len(chosen)} articles ({len(held)} held out), {min(limit, len(questions))} questions")
    return corpus, path


def collect(engine: Engine, questions_path: Path) -> list[Asked]:
    questions = [q for q in read_questions(questions_path) if q.gold_document]
    gold_index = GoldIndex(engine)
    retrievers = engine._retrieval_pipeline(None, rerank=False).retrievers
    live = set(engine.library.manifest.live_versions().values())
    asked = []
    for q in questions:
        span = gold_index.span(q)
        lists = {
            r.name: [
                (u, s)
                for u, s in r.search(q.question, engine.config.retrieval.pool)
                if u.split("-")[0] in live
            ]
            for r in retrievers
        }
        ids = list({u for hits in lists.values() for u, _ in hits})
        units = engine.library.manifest.units_by_id(ids)
        gold = {u for u in ids if u in units and span is not None and overlaps(units[u], span)}
        texts = {u: unit.index_text for u, unit in units.items()}
        asked.append(Asked(q.question, lists, gold, texts, {}))
    return asked


def rank_metrics(orders: Sequence[Sequence[str]], asked: Sequence[Asked]) -> tuple[float, float, float]:
    firsts = [
        next((i for i, u in enumerate(order) if u in a.gold), None)
        for order, a in zip(orders, asked, strict=True)
    ]
    n = max(1, len(asked))
    return (
        sum(f == 0 for f in firsts) / n,
        sum(f is not None and f < 5 for f in firsts) / n,
        sum(1 / (f + 1) for f in firsts if f is not None) / n,
    )


def reranked(a: Asked, fused: list[tuple[str, float]], weight: float, score: Callable) -> list[str]:
    """The engine's `fuse` mode: the head ordered by blend(fused, rerank, weight), the rest after it."""
    head, rest = fused[:HEAD], [u for u, _ in fused[HEAD:]]
    missing = [u for u, _ in head if u not in a.rerank]
    if missing:
        a.rerank.update(
            zip(missing, score(a.question, [Passage(u, a.texts[u]) for u in missing]), strict=True)
        )
    blended = blend([s for _, s in head], [a.rerank[u] for u, _ in head], weight)
    order = sorted(range(len(head)), key=lambda i: (-blended[i], i))
    return [head[i][0] for i in order] + rest


def study(sets: dict[str, list[Asked]], score: Callable, choose: bool) -> None:
    """Every fusion on every set. With `choose`, the vector weight and then the rerank weight with the
    best mean Recall@1 (ties: nearer 0.5); without, the rerank rows use the configured vector weight."""

    def show(label: str, order_of: Callable[[Asked], list[str]]) -> float:
        cells, r1s = [], []
        for asked in sets.values():
            r1, r5, mrr = rank_metrics([order_of(a) for a in asked], asked)
            cells.append(f"{r1:.3f} {r5:.3f} {mrr:.3f}")
            r1s.append(r1)
        mean = sum(r1s) / len(r1s)
        print(f"{label:34s}" + "".join(f"{c:>22s}" for c in cells) + f"{mean:>10.3f}")
        return mean

    def best(results: dict[float, float]) -> float:
        return max(results, key=lambda w: (round(results[w], 6), -abs(w - 0.5)))

    configured = RetrievalConfig()
    print(f"{'(R@1 R@5 MRR)':34s}" + "".join(f"{name:>22s}" for name in sets) + f"{'mean R@1':>10s}")
    for name in ("lexical", "vector"):
        show(f"{name} alone", lambda a, n=name: [u for u, _ in a.lists.get(n, [])])
    show("rrf k=60", lambda a: [u for u, _ in rrf_fuse([[u for u, _ in h] for h in a.lists.values()])])
    fused = {}
    for v in VECTOR_WEIGHTS:
        weights = {"lexical": 1 - v, "vector": v, "structure": configured.structure_weight}
        fused[v] = show(f"scores, vector {v}", lambda a, w=weights: [u for u, _ in score_fuse(a.lists, w)])
    vector = best(fused) if choose else configured.vector_weight
    print(f"-> vector weight {vector} (lexical {1 - vector:.1f})" + ("" if choose else ", as configured"))
    weights = {"lexical": 1 - vector, "vector": vector, "structure": configured.structure_weight}
    joined = {
        r: show(
            f"scores {vector} + rerank {r}",
            lambda a, r=r: reranked(a, score_fuse(a.lists, weights), r, score),
        )
        for r in RERANK_WEIGHTS
    }
    rerank = best(joined) if choose else configured.rerank_weight
    print(f"-> rerank weight {rerank}" + ("" if choose else f", as configured: R@1 {joined[rerank]:.3f}"))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("which", choices=("heldout", "squad-dev"))
    args = parser.parse_args()
    started = time.perf_counter()
    sets: dict[str, list[Asked]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        if args.which == "heldout":
            if not RAW.is_dir():
                sys.exit(
                    f"{RAW} is missing: run training/reranker/prepare.py first (it fetches SQuAD-Shifts)."
                )
            sources = {"ss_wiki": ("new_wiki_v1.0.json", 12), "ss_amazon": ("amazon_reviews_v1.0.json", 80)}
            inputs = {n: build_heldout(f, k, Path(tmp) / n) for n, (f, k) in sources.items()}
        else:
            squad = SHARED / "eval" / "squad-dev"
            inputs = {"squad-dev": (squad / "corpus", squad / "questions.jsonl")}
        for name, (corpus, questions) in inputs.items():
            with Engine.open(Path(tmp) / f"lib-{name}", Config()) as engine:
                engine.ingest([corpus])
                sets[name] = collect(engine, questions)
                # The packaged cross-encoder reads no library: it outlives the engine that built it.
                score = engine.reranker().score
        asked = sum(len(s) for s in sets.values())
        print(f"{asked} questions retrieved in {time.perf_counter() - started:.0f} s")
        study(sets, score, choose=args.which == "heldout")
    print(f"elapsed {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
