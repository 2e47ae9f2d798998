"""The Engine facade: the one object the CLI and the desktop talk to. Synchronous and Qt-free."""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path
from types import TracebackType

import numpy as np
import numpy.typing as npt

from . import documents_asked
from .answer.about_document import asks_who_wrote, with_title_pages
from .answer.asides import instruction_warnings
from .answer.deep import STANDARD, Budget, DeepSearch
from .answer.flow import AnswerFlow
from .answer.followup import EarlierTurn
from .answer.unknown_terms import unknown_terms
from .answer.verify import ClaimVerifier
from .config import (
    DEFAULT,
    HTTP,
    MULTILINGUAL,
    Config,
    batch_thread_count,
    cache_dir,
    default_library_dir,
    load_config,
    save_config,
    thread_count,
)
from .errors import Cancelled, DocumentNotFound, GeneratorError
from .events import Event, EventCallback, TokenDelta, emit
from .export import scope_words
from .graph.build import GraphBuilder
from .graph.explore import EntityPage, entity_page
from .graph.retrievers import CommunityRetriever, GraphRetriever, NodeMatcher, WikiRetriever, linked_units
from .graph.store import Community, Node
from .graph.wiki import WikiPage, WikiWriter
from .index.conversations import ConversationInfo, Turn
from .index.library import Library
from .index.vectors import AnnPolicy
from .ingest.extract.pdf_worker import PdfLayerWorker
from .ingest.pipeline import IngestPipeline
from .ingest.reembed import reembed_library
from .languages import identify
from .models.claim_model import build_claim_judge
from .models.e5_embedder import E5Embedder
from .models.embedder import SentenceTransformerEmbedder
from .models.endpoint import endpoint_state
from .models.english_lexicon import EnglishLexicon
from .models.http_models import HttpEmbedder, HttpGenerator
from .models.llm import LocalGenerator, LocalLLM
from .models.reader import build_answer_reader
from .models.recogniser import RapidRecogniser
from .models.registry import ModelRegistry
from .models.spacy_mentions import SpacyMentionReader
from .protocols import ClaimJudge, Embedder, Generator, MentionReader, Recogniser, SpanReader
from .retrieve.pipeline import GRAPH_SIGNALS, RetrievalPipeline, check_signals
from .retrieve.reformulate import QueryReformulator, Reformulation, search_languages
from .retrieve.rerank import IdentityReranker, Reranker, build_reranker
from .retrieve.retrievers import (
    LexicalRetriever,
    Retriever,
    StructureRetriever,
    TableRowRetriever,
    VectorRetriever,
)
from .serialize import plain
from .stored_conversations import answers_in
from .types import (
    Answer,
    Decision,
    DocumentMeta,
    DocumentRecord,
    Drift,
    EvidenceUnit,
    GraphStatus,
    IngestReport,
    LibraryStatus,
    ModelInfo,
    Retrieval,
    StructureNode,
)


class Engine:
    """Open with `Engine.open(...)`; close (or use as a context manager) to release the library."""

    def __init__(self, library: Library, config: Config, registry: ModelRegistry, embedder: Embedder | None):
        self.library = library
        self.config = config
        self.registry = registry
        self._embedder = embedder
        self._embedder_checked = False
        self._reranker: Reranker | None = None
        self._judge: ClaimJudge | None = None
        self._judge_built = False
        self._reader: SpanReader | None = None
        self._reader_built = False
        self._llm: LocalLLM | None = None
        self._generator: Generator | None = None
        self._query_vectors: dict[str, npt.NDArray[np.float32]] = {}
        self._recogniser: Recogniser | None = None
        self._reformulator = QueryReformulator(self.generator, identify)
        self._lexicon = EnglishLexicon()
        self._mentions: MentionReader | None = None
        self._pdfs: PdfLayerWorker | None = None  # an interactive engine's (Engine.open)
        self._matcher = NodeMatcher(
            library, self.mention_reader, self.embed_query, config.retrieval.graph_label_similarity
        )

    @classmethod
    def open(
        cls,
        library_dir: str | Path | None = None,
        config: Config | None = None,
        *,
        embedder: Embedder | None = None,
        generator: Generator | None = None,
        recogniser: Recogniser | None = None,
        mention_reader: MentionReader | None = None,
        interactive: bool = False,
    ) -> Engine:
        """Open (or create) a library; models load lazily. `embedder`, `generator`, `recogniser` (OCR) and
        `mention_reader` (the graph's) replace the configured models (tests, models in memory). An
        `interactive` engine (behind a window) reads entities and PDFs' text in worker processes."""
        folder = Path(library_dir).expanduser() if library_dir else default_library_dir()
        config = config if config is not None else load_config(folder / "config.toml")
        registry = ModelRegistry(config.models, cache_dir())
        retrieval = config.retrieval
        policy = AnnPolicy(
            min_units=retrieval.ann_min_units,
            partition_rows=retrieval.ann_partition_rows,
            nprobes=retrieval.ann_nprobes,
            refine_factor=retrieval.ann_refine_factor,
        )
        engine = cls(Library(folder, policy), config, registry, embedder)
        engine._generator = generator
        engine._recogniser = recogniser
        engine._mentions = mention_reader
        if interactive:
            engine._pdfs = PdfLayerWorker()
            engine._mentions = mention_reader or SpacyMentionReader(1, isolated=True)  # a step: 64 passages
        return engine

    def close(self) -> None:
        for workers in (self._mentions, self._pdfs):
            if isinstance(workers, SpacyMentionReader | PdfLayerWorker):
                workers.close()
        self.library.close()

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *_: type[BaseException] | BaseException | TracebackType | None) -> None:
        self.close()

    def embedder(self) -> Embedder:
        """The embedder, loaded on first call and checked against the library's vectors."""
        if self._embedder is None:
            self._embedder = self._load_embedder()
        if not self._embedder_checked:
            self.library.check_embedder(self._embedder.name, self._embedder.dimension)
            self._embedder_checked = True
        return self._embedder

    def _load_embedder(self) -> Embedder:
        if self.config.models.embedder == HTTP:
            return HttpEmbedder(self.config.models.endpoint("embedder"), self.config.ingest.embed_batch)
        if self.config.models.embedder == MULTILINGUAL:
            return E5Embedder(self.registry.embedder_path(), name=self.registry.embedder_name())
        return SentenceTransformerEmbedder(
            self.registry.embedder_path(),
            name=self.registry.embedder_name(),
            batch_size=self.config.ingest.embed_batch,
        )

    def needs_reembed(self) -> bool:
        """True when the library's vectors come from another embedder than the configured one."""
        stored = self.library.stored_embedder()
        name = self._embedder.name if self._embedder is not None else self.registry.embedder_name()
        return stored is not None and stored != name

    def reembed(self, *, on_event: EventCallback | None = None, cancel: threading.Event | None = None) -> int:
        """Embed every passage again with the configured embedder, into a new vector table that replaces
        the old one once complete; stopped, the next call goes on from there (ingest/reembed.py)."""
        embedder = self._embedder if self._embedder is not None else self._load_embedder()
        units = reembed_library(self.library, embedder, self.config.ingest.embed_batch, on_event, cancel)
        self._embedder, self._embedder_checked = embedder, True
        self._query_vectors.clear()
        return units

    def recogniser(self) -> Recogniser:
        """The OCR recogniser (loaded at its first page), on every core: the user waits for the file."""
        if self._recogniser is None:
            self._recogniser = RapidRecogniser(threads=batch_thread_count(self.config.models))
        return self._recogniser

    def mention_reader(self) -> MentionReader:
        """The entity graph's reader of entities and noun phrases (spaCy), loaded on first use."""
        if self._mentions is None:
            self._mentions = SpacyMentionReader(processes=batch_thread_count(self.config.models))
        return self._mentions

    def graph_enabled(self) -> bool:
        """Whether the configured signals use the entity graph (else the slow path never runs)."""
        return any(s in GRAPH_SIGNALS for s in check_signals(self.config.retrieval.signals))

    def build_graph(
        self,
        seconds: float | None = None,
        *,
        on_event: EventCallback | None = None,
        cancel: threading.Event | None = None,
    ) -> GraphStatus:
        """The slow path (graph/build.py): read the passages not yet read for entities, then rebuild
        the nodes and communities, for at most `seconds` (None: until done). Stopped, it goes on from
        there the next time. Does nothing when the signals leave the graph out."""
        if not self.graph_enabled():
            return self.graph_status()
        return GraphBuilder(self.library, self.mention_reader, self.embedder).run(seconds, on_event, cancel)

    def topics(self) -> list[Community]:
        """The entity graph's communities, largest first (empty until the slow path has run)."""
        return self.library.graph.communities()

    def entities(self, words: str = "", topic: int | None = None) -> list[Node]:
        """Entities and key phrases whose name holds `words`, of one topic or all, most mentioned first."""
        return self.library.graph.search_nodes(words, topic)

    def entity(self, node: str) -> EntityPage:
        """An entity's related entities and the passages that mention it (graph/explore.py)."""
        page = entity_page(self.library, node)
        if page is None:
            raise DocumentNotFound(f"No entity {node!r} in this library's graph (it may have been removed).")
        return page

    def wiki(
        self, subject: str, *, on_event: EventCallback | None = None, cancel: threading.Event | None = None
    ) -> WikiPage:
        """The library wiki's page on `subject` (graph/wiki.py: `entity_subject(node)` or
        `topic_subject(label)`), written by the generator when first opened, every sentence through
        the per-claim gate, then cached until its passages change."""
        return self._wiki_writer().page(subject, on_event=on_event, cancel=cancel)

    def cached_wiki(self, subject: str) -> WikiPage | None:
        """The subject's page when it is written and current, else None (nothing is written)."""
        return self._wiki_writer().cached(subject)

    def _wiki_writer(self) -> WikiWriter:
        generator = self.config.models.generator
        return WikiWriter(self.library, self.generator, self._verifier(), self.embedder, generator)

    def _verifier(self) -> ClaimVerifier:
        return ClaimVerifier(self.config.verify, self.embedder, self.claim_judge, self.answer_reader)

    def graph_status(self) -> GraphStatus:
        status = GraphBuilder(self.library, self.mention_reader, self.embedder).status()
        return dataclasses.replace(status, enabled=self.graph_enabled())

    def embed_query(self, text: str) -> npt.NDArray[np.float32]:
        """The embedding of a question, computed once however many stages ask for it."""
        cached = self._query_vectors.get(text)
        if cached is None:
            cached = self.embedder().embed_queries([text])[0]
            if len(self._query_vectors) > 256:
                self._query_vectors.clear()
            self._query_vectors[text] = cached
        return cached

    def ingest(
        self,
        paths: Iterable[str | Path],
        *,
        on_event: EventCallback | None = None,
        cancel: threading.Event | None = None,
        authority: int | None = None,
        force: bool = False,
    ) -> IngestReport:
        """Add or refresh files and folders (recursively); each file's outcome is in the report.
        Unchanged files are skipped unless `force` (Re-index) asks to read them again."""
        pipeline = IngestPipeline(
            self.library, self.embedder, self.config.ingest, instruction_warnings, self.recogniser, self._pdfs
        )
        return pipeline.run(paths, on_event=on_event, cancel=cancel, authority=authority, force=force)

    def retrieve(
        self,
        question: str,
        k: int | None = None,
        *,
        signals: Sequence[str] | None = None,
        rerank: bool = True,
        documents: Sequence[str | Path] | None = None,
    ) -> Retrieval:
        """Ranked candidates for a question, without generating: per-retriever ranks and scores,
        fused score and rerank score, with the trace of each stage. `rerank=False` keeps the fused
        order (the ablations of `citedesk eval --compare`). `documents` scopes the search (`scope`)."""
        scope = frozenset(self.scope(documents)) if documents else None
        pipeline = self._retrieval_pipeline(signals, rerank)
        variants = self.reformulate(question).variants
        return pipeline.run(question, k or self.config.retrieval.top_k, scope=scope, variants=variants)

    def load_lexicon(self) -> None:
        """Read the English word list now (about 2 s, once) instead of at the first question."""
        self._lexicon.knows("")

    def unknown_terms(self, question: str) -> list[str]:
        """The question's words that are no English word and that the library never writes, nor a
        document's file name (answer/unknown_terms.py)."""
        names = [Path(path).name for path in self.library.manifest.per_document("source_path").values()]
        names += [meta.title for meta in self.library.manifest.metadata().values()]
        return unknown_terms(question, self._lexicon.knows, self.library.lexical.writes_like, names)

    def reformulate(self, question: str, cancel: threading.Event | None = None) -> Reformulation:
        """The question in `[retrieval] search_languages` other than its own (retrieve/reformulate.py)."""
        languages = search_languages(
            self.config.retrieval.search_languages, self.library.manifest.per_document("language")
        )
        if not languages:
            return Reformulation({})
        return self._reformulator.reformulate(question, languages, cancel)

    def scope(self, items: Sequence[str | Path]) -> tuple[str, ...]:
        """The documents a question is asked in (documents_asked.py)."""
        return documents_asked.scope(self.library, items)

    def _retrieval_pipeline(self, signals: Sequence[str] | None, rerank: bool = True) -> RetrievalPipeline:
        return RetrievalPipeline(
            library=self.library,
            retrievers=self._retrievers(signals if signals is not None else self.config.retrieval.signals),
            reranker=self.reranker() if rerank else IdentityReranker(),
            config=self.config.retrieval,
            rerank_head=self._rerank_head(),
        )

    def ask(
        self,
        question: str,
        *,
        k: int | None = None,
        mode: str | None = None,
        strategy: str = STANDARD,
        conversation: str | None = None,
        follow_up: bool = True,
        documents: Sequence[str | Path] | None = None,
        on_event: EventCallback | None = None,
        cancel: threading.Event | None = None,
    ) -> Answer:
        """A cited answer or an attributable refusal; the turn is stored in its conversation (a new
        one when none is given, created once there is a turn to keep). Stopped through `cancel`, the
        answer is `Decision.STOPPED` with what the model had written, kept as such in the conversation.
        In a conversation, a follow-up that cannot stand alone is rewritten from the previous turn
        (answer/followup.py); `follow_up=False` asks the question as it stands. With `documents` (ids,
        paths or folders, see `scope`) only those documents are searched; the answer's `scope` says
        which, and is stored with the turn."""
        scope = self.scope(documents) if documents else ()
        within = frozenset(scope) if scope else None
        store = self.library.conversations
        if conversation is not None and not store.exists(conversation):
            raise DocumentNotFound(f"There is no conversation {conversation} in this library.")
        earlier: list[EarlierTurn] = []
        if conversation is not None and follow_up:
            earlier = [EarlierTurn.stored(turn.question, turn.answer) for turn in store.turns(conversation)]
        manifest = self.library.manifest
        count = k or self.config.retrieval.top_k
        answering = self.config.answer

        def retrieve(query: str, count: int, asked: str, variants: dict[str, str]) -> Retrieval:
            found = self._retrieval_pipeline(None).run(query, count, asked, scope=within, variants=variants)
            if not asks_who_wrote(asked):
                return found
            return with_title_pages(found, manifest.units_of, manifest.metadata)

        flow = AnswerFlow(
            retrieve=retrieve,
            deep=DeepSearch(
                lambda search: self._retrieval_pipeline(None).run(search, count, search, scope=within),
                self.generator,
                Budget(answering.deep_hops, answering.deep_lookups, answering.deep_seconds),
                lambda anchors, others: linked_units(self.library, anchors, others),
            ),
            reformulate=self.reformulate if self.config.retrieval.search_languages else None,
            translate=self._reformulator.translate,
            embed_query=self.embed_query,
            stored_vectors=self.library.vectors.vectors_by_id,
            generator=self.generator,
            verifier=self._verifier(),
            config=self.config.answer,
            tiers=lambda: manifest.per_document("authority"),
            paths=lambda: manifest.per_document("source_path"),
            library_empty=lambda: (
                not any(
                    within is None or document in within for document in self.library.manifest.live_versions()
                )
            ),
            empty_reason=(
                "None of the documents asked about has searchable text yet: add them again, or ask "
                "the whole library."
                if within is not None
                else "The library is empty: add documents first."
            ),
            searched_in=scope_words(scope) if scope else "the library",
            calibrated_rerank=self.config.models.reranker == DEFAULT,
            calibrated_similarity=self.config.models.embedder == DEFAULT,
            identify_language=identify,
            document_languages=lambda: manifest.per_document("language"),
            unknown_terms=self.unknown_terms if answering.refuse_unknown_terms else None,
            authors=lambda document: manifest.metadata().get(document, DocumentMeta()).authors,
        )
        written: list[str] = []

        def listen(event: Event) -> None:
            if isinstance(event, TokenDelta):
                written.append(event.text)
            emit(on_event, event)

        try:
            answer = flow.ask(
                question,
                k=count,
                mode=mode,
                strategy=strategy,
                earlier=earlier,
                on_event=listen,
                cancel=cancel,
            )
        except (Cancelled, GeneratorError) as stopped:
            # Stopped, or the generator failed (a server gone mid-answer): the question and what the
            # model had written are kept in the conversation, marked as stopped and unverified, so
            # nothing the user saw is lost; a failure is then raised for the caller to say.
            trace = stopped.trace if isinstance(stopped, Cancelled) else ()
            answer = Answer(question, Decision.STOPPED, "".join(written).strip(), (), (), (), trace)
            failure = stopped if isinstance(stopped, GeneratorError) else None
        else:
            failure = None
        conversation = conversation or store.new(question)
        answer = dataclasses.replace(
            answer,
            conversation=conversation,
            scope=scope,
            sources=manifest.described(answer.sources, answer.claims),
            considered=manifest.described(answer.considered),
        )
        store.add_turn(conversation, question, plain(answer))
        if failure is not None:
            raise failure
        return answer

    def conversations(self) -> list[ConversationInfo]:
        return self.library.conversations.list()

    def conversation(self, conversation: str) -> list[Turn]:
        return self.library.conversations.turns(conversation)

    def answers(self, conversation: str) -> list[Answer]:
        """The answers of a stored conversation, in order, as the ask pipeline returned them."""
        return answers_in(self.library.conversations, conversation)

    def delete_conversation(self, conversation: str) -> None:
        if not self.library.conversations.delete(conversation):
            raise DocumentNotFound(f"There is no conversation {conversation} in this library.")

    def generator(self) -> Generator:
        """The generator, loaded on first use (`Engine.open(generator=...)` puts another in its slot)."""
        if self._generator is None:
            models = self.config.models
            if models.generator == HTTP:
                self._generator = HttpGenerator(models.endpoint("generator"))
            else:
                self._generator = LocalGenerator(self.llm())
        return self._generator

    def load_generator(self) -> None:
        """Load the local generator now rather than on the first question (the window does this in
        the background once the other models are ready); a generator given to `open` needs nothing."""
        generator = self.generator() if self._generator is None else self._generator
        if isinstance(generator, LocalGenerator):
            self.llm().model()
        elif isinstance(generator, HttpGenerator):
            usable, words = endpoint_state(generator.endpoint)
            if not usable:
                raise GeneratorError(f"The generator's server at {generator.endpoint.url} is {words}.")

    def reranker(self) -> Reranker:
        """The configured reranker, built once."""
        if self._reranker is None:
            self._reranker = build_reranker(self.config, self.registry, self.library, self.embedder, self.llm)
        return self._reranker

    def claim_judge(self) -> ClaimJudge | None:
        """The claim verifier of the per-claim gate (None: verifier = none), built once."""
        if not self._judge_built:
            self._judge, self._judge_built = build_claim_judge(self.registry), True
        return self._judge

    def answer_reader(self) -> SpanReader | None:
        """The answer reader of the per-claim gate (None: reader = none), built once."""
        if not self._reader_built:
            self._reader, self._reader_built = build_answer_reader(self.registry), True
        return self._reader

    def llm(self) -> LocalLLM:
        """The local generator model (llama.cpp), loaded on first use."""
        if self._llm is None:
            self._llm = LocalLLM(
                self.registry.generator_path(),
                threads=thread_count(self.config.models),
                batch_threads=batch_thread_count(self.config.models),
                context=self.config.answer.context_tokens,
            )
        return self._llm

    def _retrievers(self, signals: Sequence[str]) -> list[Retriever]:
        chosen = check_signals(signals)
        built: dict[str, Retriever] = {
            "vector": VectorRetriever(self.library, self.embed_query),
            "lexical": LexicalRetriever(self.library),
            "structure": StructureRetriever(self.library),
            "rows": TableRowRetriever(self.library),
            "graph": GraphRetriever(self.library, self._matcher, hops=self.config.retrieval.graph_hops),
            "community": CommunityRetriever(self.library, self._matcher),
            "wiki": WikiRetriever(self.library, self._matcher, self.embedder, self.embed_query),
        }
        return [built[name] for name in chosen]

    def _rerank_head(self) -> int:
        retrieval = self.config.retrieval
        return retrieval.gguf_rerank_head if self.config.models.reranker == "gguf" else retrieval.rerank_head

    def delete(self, document: str | Path) -> DocumentRecord:
        """Remove every trace of a document: units, vectors, lexical rows, blobs, structure."""
        return self.library.delete(self.resolve(document))

    def resolve(self, document: str | Path) -> str:
        """A document id from an id or a path, as typed by the user (documents_asked.py)."""
        return documents_asked.resolve(self.library, document)

    def documents(self) -> list[DocumentRecord]:
        return self.library.manifest.documents()

    def metadata(self) -> dict[str, DocumentMeta]:
        """Each document's title, authors and year, where the file states them or the user wrote them."""
        return self.library.manifest.metadata()

    def describe(
        self,
        document: str | Path,
        *,
        title: str | None = None,
        authors: Sequence[str] | None = None,
        year: int | None = None,
    ) -> DocumentMeta:
        """Write a document's title, authors or year (None: keep what is known; "", [] or 0: clear
        it). The user's words are kept when the file is read again, and cite it from then on."""
        return self.library.describe(self.resolve(document), title, authors, year)

    def warnings(self) -> dict[str, tuple[str, ...]]:
        """Per document with any: hidden text left out at ingest, text addressed to an AI."""
        return self.library.manifest.warnings()

    def units(self, document: str) -> list[EvidenceUnit]:
        return self.library.units(self.resolve(document))

    def text(self, document: str) -> str:
        """The extracted text every unit of the document is a slice of."""
        return self.library.text(self.resolve(document))

    def structure(self, document: str) -> list[StructureNode]:
        return self.library.manifest.structure(self.resolve(document))

    def set_authority(self, document: str, authority: int) -> None:
        self.library.manifest.set_authority(self.resolve(document), authority)

    def reconcile(self) -> list[Drift]:
        """Library documents whose source file is missing or no longer what was ingested."""
        return self.library.reconcile()

    def save_settings(self, config: Config) -> None:
        """Write settings into the library's config.toml; they apply when the library is opened again."""
        save_config(self.library.folder / "config.toml", config)

    def models(self, verify: bool = True) -> tuple[ModelInfo, ...]:
        return self.registry.describe(verify=verify)

    def status(self, verify_models: bool = False) -> LibraryStatus:
        documents = self.documents()
        return LibraryStatus(
            library_dir=str(self.library.folder),
            documents=len(documents),
            units=sum(d.units for d in documents),
            size_bytes=self.library.size_bytes(),
            models=self.models(verify=verify_models),
            needs_reembed=bool(documents) and self.needs_reembed(),
            graph=self.graph_status(),
        )
