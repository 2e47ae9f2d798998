"""Engine configuration: nested frozen dataclasses, read from TOML; every field has a sane default."""

from __future__ import annotations

import dataclasses
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import platformdirs

from .errors import ConfigError
from .models.endpoint import Endpoint, base_url, check_endpoint, is_loopback

APP_NAME = "CiteDesk"
DEFAULT = "default"  # a model slot set to this resolves to the packaged model
SMALL = "small"  # the generator slot's second packaged model: faster, less accurate
MULTILINGUAL = "multilingual"  # the embedder slot's second packaged model: about 100 languages
HTTP = "http"  # a model slot served by an OpenAI-compatible server (models/endpoint.py)
RERANKER_RUNTIMES = ("auto", "onnx-int8", "torch")  # models/cross_encoder.py


@dataclass(frozen=True, slots=True)
class ModelsConfig:
    """Each slot is `default` (the packaged model) or a path to the user's own file or folder."""

    # default (all-MiniLM-L6-v2, English) | multilingual (multilingual-e5-small at 4 bits, about 100
    # languages, one vector space: a question finds passages in another language; about 3x slower to
    # ingest) | a sentence-transformers folder | http
    embedder: str = DEFAULT
    # default (Qwen2.5-Coder-1.5B-Instruct) | small (Qwen2.5-Coder-0.5B-Instruct, about 2x faster, far
    # fewer right answers) | a path to the user's own GGUF | http (generator_url, generator_model)
    generator: str = DEFAULT
    # default (our packaged cross-encoder, resources/models/reranker) | none (keep the fusion order) |
    # embedding (stored vectors) | cross-encoder (reranker_path folder) | gguf (yes/no on the generator)
    # | http (a /rerank server: reranker_url, reranker_model)
    reranker: str = DEFAULT
    # How the packaged reranker runs: auto (PyTorch under bfloat16 autocast where the CPU computes
    # bfloat16 natively, AMX or AVX512-BF16; else onnx-int8) | onnx-int8 (exported to ONNX and
    # quantised to int8 in the cache folder on first use) | torch. Chosen on measurements of both on our
    # own held-out sets and on 2 cores: resources/models/reranker/README.md, "int8 ONNX".
    reranker_runtime: str = "auto"
    reranker_path: str = ""
    reranker_url: str = ""
    reranker_model: str = ""
    # Model slots served by an OpenAI-compatible server (llama.cpp's server, Ollama, LM Studio, vLLM):
    # generator = "http" reads generator_url (the address without /v1) and generator_model; embedder =
    # "http" likewise. api_key_env names an environment variable holding the servers' API key (the key
    # itself is never written here). A server on another host than this one needs allow_remote = true:
    # questions and passages are sent to it.
    generator_url: str = ""
    generator_model: str = ""
    embedder_url: str = ""
    embedder_model: str = ""
    api_key_env: str = ""
    allow_remote: bool = False
    server_timeout_s: int = 120  # one request; a stream that stays silent this long is an error
    # default (our packaged claim verifier, resources/models/verifier) | none (the per-claim gate's
    # semantic check falls back to embedding similarity)
    verifier: str = DEFAULT
    # none (a short answer is judged by the claim verifier alone) | packaged (our answer reader,
    # resources/models/reader: a short answer the answer model hesitated over, [verify]
    # reader_below_certainty, must be the span the reader finds answering the question). Off by
    # default: it still costs about as many right answers as the wrong ones it stops in the app
    # (0.12.0: real documents 5 right for 3 wrong, squad-dev's first 200 questions 5 for 3; reading
    # every short answer, 8 for 4 and 5 for 6; docs/evaluation.md). For users who would rather be
    # refused than told a wrong span.
    reader: str = "none"
    threads: int = 0  # decoding; 0: max(1, cores - 1), see DESIGN.md on llama.cpp and OpenMP spin-waiting
    # Prompt processing is one big batch and scales with cores (on 2 cores: 37 -> 64 tokens/s, the
    # prompt being most of an answer's time); 0: every core.
    batch_threads: int = 0

    def __post_init__(self) -> None:
        if self.reranker_runtime not in RERANKER_RUNTIMES:
            raise ConfigError(
                f"[models] reranker_runtime must be one of {', '.join(RERANKER_RUNTIMES)}, "
                f"got {self.reranker_runtime!r}"
            )
        for slot, url, model in self.servers():
            if not url:
                raise ConfigError(f'[models] {slot} = "http" needs {slot}_url, the server\'s address.')
            check_endpoint(slot, url, self.allow_remote)
            if slot == "embedder" and not model:
                raise ConfigError(
                    '[models] embedder = "http" needs embedder_model: the library records it, so that '
                    "vectors of two models never mix."
                )

    def servers(self) -> tuple[tuple[str, str, str], ...]:
        """(slot, url, model) of each slot set to an OpenAI-compatible server."""
        chosen = (
            ("generator", self.generator, self.generator_url, self.generator_model),
            ("embedder", self.embedder, self.embedder_url, self.embedder_model),
            ("reranker", self.reranker, self.reranker_url, self.reranker_model),
        )
        return tuple((slot, url, model) for slot, kind, url, model in chosen if kind == HTTP)

    def endpoint(self, slot: str) -> Endpoint:
        """The server of `slot` (generator, embedder or reranker), as configured."""
        url, model = {
            "generator": (self.generator_url, self.generator_model),
            "embedder": (self.embedder_url, self.embedder_model),
            "reranker": (self.reranker_url, self.reranker_model),
        }[slot]
        return Endpoint(base_url(url), model, self.api_key_env, float(self.server_timeout_s or 120))

    def remote_servers(self) -> tuple[tuple[str, str], ...]:
        """(slot, url) of each server on another host than this one: what the window confirms."""
        return tuple((slot, url) for slot, url, _ in self.servers() if url and not is_loopback(url))


@dataclass(frozen=True, slots=True)
class IngestConfig:
    # all-MiniLM-L6-v2 reads 256 word pieces; 200 approximate tokens leave room for the context line.
    chunk_tokens: int = 200
    overlap_tokens: int = 30
    embed_batch: int = 32
    max_file_mb: int = 512
    # Office files are zip archives: refuse one whose members expand past this (zip bombs).
    max_unzipped_mb: int = 1024
    max_zip_ratio: int = 200
    # OCR (ingest/ocr.py): "auto" reads pictures, and the PDF pages whose text layer is missing or
    # unreadable; "off" never runs it (such pages stay unsearchable, pictures are refused).
    ocr: str = "auto"
    # Pages are rendered at this resolution for OCR (a scan finer than it at its own; lines are found
    # on a smaller copy). Chosen by benchmarks/ocr_accuracy.py on rendered, noised and skewed pages of
    # real PDFs: 300 dpi runs fewer words together than 200 and, lines being found on the smaller copy,
    # costs little more time; see docs/evaluation.md "OCR".
    ocr_dpi: int = 300
    ocr_max_minutes: int = 30  # of one file; pages past it are left unread, with a warning
    # How fast files are read, to say what a watched folder will cost before it is read (watch.py):
    # the eight real documents of benchmarks/realdocs (5.7 MB: PDFs, a 261-page manual, Word, HTML,
    # CSV, a workbook) took 91-117 s on 2 cores, about 50-60 KB/s; scans needing OCR are far slower.
    estimate_kb_per_s: int = 50

    def __post_init__(self) -> None:
        if self.ocr not in ("auto", "off"):
            raise ConfigError(f'[ingest] ocr must be "auto" or "off", got {self.ocr!r}')
        if not 72 <= self.ocr_dpi <= 600:
            raise ConfigError(f"[ingest] ocr_dpi must be between 72 and 600, got {self.ocr_dpi}")


@dataclass(frozen=True, slots=True)
class RetrievalConfig:
    top_k: int = 5
    pool: int = 50  # candidates each retriever returns before fusion
    # How the retrievers' lists are fused (retrieve/fusion.py): "scores" sums each list's min-max
    # normalised scores with these weights; "rrf" is reciprocal rank fusion with rrf_k. The weights
    # were chosen by benchmarks/fusion_study.py on six held-out sets of our own (SQuAD-Shifts, reddit,
    # BoolQ, HaluEval, PubMedQA questions the reranker never trained on), never on shared/eval: see
    # that script's docstring for the figures. The structure weight is set by hand
    # (none of those sets has headings): a named section counts as much as the dense retriever.
    fusion: str = "scores"
    lexical_weight: float = 0.6
    vector_weight: float = 0.4
    structure_weight: float = 0.3
    # The table row retriever (a row whose first cell the question writes: "Debian 12"), set by hand
    # like the structure weight and for the same reason (none of those sets has tables): a row named by
    # its key counts as much as a named section. It lists nothing for a library without tables.
    rows_weight: float = 0.3
    # The entity graph's retrievers (graph/retrievers.py), weighted like the others. Chosen by
    # `benchmarks/multihop/retrieval.py --grid` on the first half of our multi-hop set (both supporting
    # documents in the top 5: 0.77 without the graph; graph 0.2 or 0.3 gave 0.79, 0.1 0.77, 0.4 0.78,
    # 0.6 0.75; a community weight of 0.1 lowered each, so the community retriever is traced but not
    # counted), checked on its second half and on squad-dev (docs/evaluation.md, "Entity graph").
    graph_weight: float = 0.2
    community_weight: float = 0.0
    # The library wiki's retriever (graph/retrievers.py WikiRetriever): pages exist once opened, so
    # it finds only what a reader has explored. `benchmarks/multihop/wiki.py` wrote the page of the
    # entity each of 30 + 30 multi-hop questions names (as if the reader had opened it): both@5 0.833
    # and 0.800 at weight 0 and 0.1, 0.833 and 0.767 at 0.2 and 0.3; no weight helped, so it is traced
    # (its ranks are in the trace) but not counted.
    wiki_weight: float = 0.0
    graph_hops: int = 2  # steps of the walk from the question's nodes along same-sentence edges
    # A node whose label embeds at least this close to an entity or phrase of the question counts as
    # named by it (at that similarity). benchmarks/graph_labels.py, 10 pairs of names of one thing and
    # 10 of different things, written by hand, packaged embedder: at 0.85, 6 and 0 match; at 0.80, 7
    # and 0 (World War II / World War I at 0.79); at 0.75, 8 and 1. 0.85 keeps a margin.
    graph_label_similarity: float = 0.85
    rrf_k: int = 60
    # How much of the fused list the reranker sees, and how its scores count: "fuse" orders the head by
    # (1 - rerank_weight) x fused + rerank_weight x rerank score (both min-max normalised over the
    # head), "replace" by the reranker's scores alone. Chosen with the fusion weights (same script).
    rerank_head: int = 10
    rerank_mode: str = "fuse"
    rerank_weight: float = 0.4
    gguf_rerank_head: int = 10  # the yes/no GGUF reranker costs ~0.5 s a passage on 2 cores
    rerank_batch: int = 16
    # Which retrievers run: any of vector, lexical, structure, rows, graph, community, wiki. Empty: all of
    # them. Leaving out graph, community and wiki skips the slow path (the entity graph is not built).
    signals: tuple[str, ...] = ()
    # Vector search is exact (an in-memory matrix, 1.5 KB a unit) until the library holds
    # ann_min_units units; the ingest that crosses it builds an approximate IVF-RQ index (about 25 s at
    # 1.5 million units) of partitions of ann_partition_rows rows (built again when the library has
    # doubled), searched in ann_nprobes partitions with ann_refine_factor x the candidates re-scored
    # exactly. Chosen by benchmarks/million/ann.py on our library of 1.5 million passages of Debian's
    # manuals, as the cheapest setting with recall@10 >= 0.95 against exact search: 0.954 in 8.8 ms
    # (nprobes 40 / refine 10: 0.918 in 6.3 ms; 120 / 20: 0.963 in 10.3 ms). docs/evaluation.md,
    # "A million passages", has the whole sweep.
    # Cross-lingual reformulation (retrieve/reformulate.py): the question is also searched translated
    # by the generator into each of these languages (ISO 639-1 codes; "auto": the languages of at
    # least a tenth of the library's documents, detected at ingest), except its own: a library in the
    # asker's language costs nothing. Empty: searched as asked only. Measured on benchmarks/multilingual
    # (docs/evaluation.md, "Other languages").
    search_languages: tuple[str, ...] = ("auto",)
    ann_min_units: int = 200_000
    ann_partition_rows: int = 4096
    ann_nprobes: int = 80
    ann_refine_factor: int = 20


@dataclass(frozen=True, slots=True)
class VerifyConfig:
    """Per-claim gate thresholds (see answer/verify.py), never per question. The alignment ones were
    chosen on the shared claims dev sets (full alignment means every content word is found); the
    claim verifier's on our own validation split by `training/verifier/evaluate.py` (grid, best mean
    balanced accuracy: VitaminC + HaluEval for the two claim thresholds, HaluEval + knowledge
    conflicts for the short-answer one), never on shared/eval."""

    full_alignment: float = 0.99
    min_alignment: float = 0.5
    min_similarity: float = 0.6  # cosine, only without the claim verifier (verifier = none)
    # The claim verifier's probability of "supported" a claim needs: partly aligned, fully aligned
    # (the guards and the alignment already vouch for its words), and a short answer read with its
    # question. Re-chosen (0.2 -> 0.1 for fully aligned) when claims came to be read against their
    # best window instead of the whole passage, and back to 0.2 when "A and B" after "of"/"to" came
    # to offer options (one HaluEval row apart: mean 0.85195 against 0.8519; results.json).
    min_support: float = 0.4
    min_support_aligned: float = 0.2
    min_support_answer: float = 0.1
    # The answer reader's share of belief a short answer needs (answer/answer_span.py): chosen by
    # training/reader/evaluate.py on its validation split (SQuAD-Shifts articles it never trained on:
    # a question's own answer against another question's answer on the same passage), best balanced
    # accuracy; never on shared/eval.
    min_reader_agreement: float = 0.01
    # With the answer reader on: it reads the short answers the answer model wrote with less certainty
    # than this (the probability the model gave the answer's least sure word, answer/certainty.py);
    # 1.0: every short answer, also from a generator that cannot say how sure it was (a server).
    # Chosen by benchmarks/answer_confidence.py on SQuAD-Shifts val (questions over articles and
    # reviews none of our models trained on), the packaged 1.5B writing: the highest threshold at which
    # reader and certainty together refuse at most 5% of the right short answers (4 of 93; they
    # refuse 11 of the 27 wrong ones; the reader on every answer refused 11 right, 18 wrong).
    reader_below_certainty: float = 0.5
    # A verified short answer the answer model wrote with less certainty than this is shown with a
    # caution ("the answer model was unsure of this answer"), not refused. The same hesitation mark
    # as the reader's, measured by benchmarks/answer_confidence.py on SQuAD-Shifts (docs/evaluation.md,
    # "The answer model's certainty"): below 0.5, val 18 of 27 wrong short answers and 31 of 93 right
    # ones; test (nyt) 17 of 29 wrong, 38 of 142 right. A cautioned answer is wrong about three times
    # as often as the others (val 37% against 13%, nyt 31% against 10%). 0: no caution.
    caution_below_certainty: float = 0.5


@dataclass(frozen=True, slots=True)
class AnswerConfig:
    """Gates and generation. Relevance thresholds were chosen on squad-dev (answerable against
    off-corpus questions, `benchmarks/calibrate_relevance.py`), never per question."""

    # benchmarks/calibrate_relevance.py on the 500 squad-dev questions, with the packaged reranker
    # (fuse, head 10): refusal recall 0.98 on the 100 off-corpus ones, false refusals 0.035 on the
    # 400 answerable ones. Without the reranker's path the best was 0.4/0.3/0.55: 0.96 and 0.048
    # (hand-set 0.5/0.35/0.6 gave 0.98 and 0.095). Re-run after retrieval moved to score fusion:
    # 0.98 and 0.037 at these thresholds, kept. With the 600-step reranker: 0.98 and 0.025, kept (its
    # best point, min_rerank 0.9: 1.00 and 0.040; the later stages refuse what the gate lets through).
    # With the fusion weights of 2026-12-01 (0.6 / 0.4, rerank 0.4): 0.98 and 0.025 again, kept (best
    # point min_rerank 0.8 with min_coverage 0.6, min_similarity 0.3: 1.00 and 0.033).
    min_coverage: float = 0.4  # share of the question's content words the passage must contain
    min_similarity: float = 0.4  # with that coverage, the least cosine similarity
    high_similarity: float = 0.55  # this similar is relevant even in other words
    # With the packaged reranker: a passage it scores at least this (a probability) is relevant
    # whatever its words. 0: not used (other rerankers' scores are not probabilities).
    min_rerank: float = 0.7
    min_relevant: int = 1  # passages needed (PyAIStack's min_context_results)
    # Refuse a question naming a word the library never writes, nor one spelled like it
    # (answer/unknown_terms.py). `benchmarks/unknown_terms.py`: squad-dev flags 7 of 100 off-corpus
    # and 0 of 400 answerable questions; the real-document set 1 of 19 off-document (structlog) and
    # none of 85 answerable. HaluEval QA's questions against their own evidence: 19 of 300, each
    # naming a person its two-sentence evidence calls "he" or "she" (a whole document names them).
    refuse_unknown_terms: bool = True
    trust_mode: str = "normal"  # strict | normal | exploratory
    authority_floor: int = 1  # strict mode cites only documents of this tier or higher
    context_passages: int = 3  # how many passages the generator reads
    max_passage_chars: int = 500  # of each passage, the sentences nearest the question (prompts.focus)
    max_answer_tokens: int = 160
    context_tokens: int = 4096
    # strategy "deep" (answer/deep.py): searches in all (the question's own included), times the
    # generator is asked whether another search is needed, and the seconds after which it is not
    # asked again. Set by hand: two lookups cover the two-fact questions of benchmarks/multihop.
    deep_hops: int = 3
    deep_lookups: int = 2
    deep_seconds: float = 60.0


@dataclass(frozen=True, slots=True)
class Config:
    models: ModelsConfig = field(default_factory=ModelsConfig)
    ingest: IngestConfig = field(default_factory=IngestConfig)
    retrieval: RetrievalConfig = field(default_factory=RetrievalConfig)
    verify: VerifyConfig = field(default_factory=VerifyConfig)
    answer: AnswerConfig = field(default_factory=AnswerConfig)

    def with_changes(self, **sections: Any) -> Config:
        return dataclasses.replace(self, **sections)


def default_library_dir() -> Path:
    """Where the library lives unless the user chooses another folder."""
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)) / "library"


def cache_dir() -> Path:
    """Where assembled model files are cached; CITEDESK_CACHE_DIR overrides it (tests, portable use)."""
    override = os.environ.get("CITEDESK_CACHE_DIR")
    return Path(override) if override else Path(platformdirs.user_cache_dir(APP_NAME, appauthor=False))


def thread_count(config: ModelsConfig) -> int:
    return config.threads if config.threads > 0 else max(1, (os.cpu_count() or 2) - 1)


def batch_thread_count(config: ModelsConfig) -> int:
    return config.batch_threads if config.batch_threads > 0 else max(1, os.cpu_count() or 1)


def load_config(path: Path) -> Config:
    """Read a TOML file; a missing file gives the defaults, a bad key or value is a ConfigError."""
    if not path.exists():
        return Config()
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"Cannot read the configuration {path}: {exc}") from exc
    sections: dict[str, Any] = {}
    for name, cls in (
        ("models", ModelsConfig),
        ("ingest", IngestConfig),
        ("retrieval", RetrievalConfig),
        ("verify", VerifyConfig),
        ("answer", AnswerConfig),
    ):
        values = raw.pop(name, {})
        if not isinstance(values, dict):
            raise ConfigError(f"[{name}] in {path} must be a table")
        sections[name] = _build(cls, values, f"{path} [{name}]")
    if raw:
        raise ConfigError(f"Unknown sections in {path}: {', '.join(sorted(raw))}")
    return Config(**sections)


def _build(cls: type, values: dict[str, Any], where: str) -> Any:
    known = {f.name: f for f in dataclasses.fields(cls)}
    unknown = set(values) - set(known)
    if unknown:
        raise ConfigError(f"Unknown settings in {where}: {', '.join(sorted(unknown))}")
    defaults = cls()
    values = {k: tuple(v) if isinstance(v, list) else v for k, v in values.items()}
    for key, value in values.items():
        expected = type(getattr(defaults, key))
        if not isinstance(value, expected) or isinstance(value, bool) != (expected is bool):
            raise ConfigError(f"{where} {key} must be {expected.__name__}, got {value!r}")
        if expected is int and value < 0:
            raise ConfigError(f"{where} {key} must not be negative, got {value}")
    return cls(**values)


def save_config(path: Path, config: Config) -> None:
    """Write the settings that differ from the defaults into the TOML file, keeping the user's own
    comments and layout (tomlkit); settings back at their default are removed. Atomic: a crash
    leaves the old file or the new one."""
    import tomlkit

    try:
        document = tomlkit.parse(path.read_text(encoding="utf-8")) if path.exists() else tomlkit.document()
    except (OSError, UnicodeDecodeError, tomlkit.exceptions.TOMLKitError) as exc:
        raise ConfigError(f"Cannot read the configuration {path}: {exc}") from exc
    for name in ("models", "ingest", "retrieval", "verify", "answer"):
        section = getattr(config, name)
        defaults = type(section)()
        table = document.get(name)
        for f in dataclasses.fields(section):
            value = getattr(section, f.name)
            if value != getattr(defaults, f.name):
                if table is None:
                    table = document[name] = tomlkit.table()
                table[f.name] = list(value) if isinstance(value, tuple) else value
            elif table is not None and f.name in table:
                del table[f.name]
        if table is not None and not table:
            del document[name]
    temporary = path.with_name(path.name + ".partial")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_text(tomlkit.dumps(document), encoding="utf-8")
        os.replace(temporary, path)
    except OSError as exc:
        raise ConfigError(f"Cannot write the configuration {path}: {exc.strerror}") from exc
