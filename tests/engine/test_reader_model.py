"""The packaged answer reader on its real weights: through the registry, the per-claim gate, and
Engine.ask, where another span of the right passage is refused (issue: wrong spans)."""

from __future__ import annotations

from pathlib import Path

import pytest
from citedesk_engine.answer.verify import ClaimVerifier
from citedesk_engine.api import Engine
from citedesk_engine.config import Config, ModelsConfig, VerifyConfig
from citedesk_engine.errors import ConfigError, ModelError
from citedesk_engine.models import registry as registry_module
from citedesk_engine.models.claim_model import build_claim_judge
from citedesk_engine.models.reader import build_answer_reader
from citedesk_engine.models.registry import ModelRegistry
from citedesk_engine.testing import ScriptedGenerator
from citedesk_engine.types import Decision, Stage

pytestmark = pytest.mark.models

# (domain, passage, question, the passage's answer, another span of the same passage)
CASES = [
    (
        "encyclopedic",
        "The Intergovernmental Panel on Climate Change was established in 1988. Its first chair was "
        "the Swedish meteorologist Bert Bolin, who served until 1997. Rajendra K. Pachauri chaired "
        "the panel from 2002 to 2015.",
        "Who was the first chair of the panel?",
        "Bert Bolin",
        "Rajendra K. Pachauri",
    ),
    (
        "legal",
        "The lease runs for a term of three years from the commencement date. The tenant shall pay "
        "a deposit of two months' rent, which the landlord must return within 30 days after the "
        "lease ends.",
        "How long does the landlord have to return the deposit?",
        "within 30 days",
        "three years",
    ),
    (
        "medical",
        "In the trial, 412 patients received the vaccine and 398 received a placebo. Mild fever was "
        "the most common side effect, reported by 12 percent of vaccinated patients.",
        "What was the most common side effect?",
        "Mild fever",
        "a placebo",
    ),
    (
        "scientific",
        "The samples were sequenced on an Illumina HiSeq 2500. Reads were aligned to the GRCh38 "
        "reference genome with BWA-MEM, and variants were called with GATK.",
        "Which tool aligned the reads?",
        "BWA-MEM",
        "GATK",
    ),
]


@pytest.fixture(scope="module")
def gate() -> ClaimVerifier:
    registry = ModelRegistry(ModelsConfig(reader="packaged"), Path("/nonexistent-cache"))
    judge, reader = build_claim_judge(registry), build_answer_reader(registry)
    assert judge is not None and reader is not None
    # The reader reads every short answer here (as for a generator that cannot say how sure it was).
    return ClaimVerifier(VerifyConfig(reader_below_certainty=1.0), None, lambda: judge, lambda: reader)


@pytest.mark.parametrize(("domain", "passage", "question", "right", "wrong"), CASES)
def test_the_gate_tells_the_passages_answer_from_another_span(
    gate: ClaimVerifier, domain: str, passage: str, question: str, right: str, wrong: str
) -> None:
    accepted = gate.check(right, [passage], question)
    assert accepted.supported, (domain, accepted.method)
    refused = gate.check(wrong, [passage], question)
    assert not refused.supported and refused.check == "reader", (domain, refused.method)


@pytest.mark.parametrize(("domain", "passage", "question", "right", "wrong"), CASES[:2])
def test_another_span_is_refused_in_the_app(
    tmp_path: Path, domain: str, passage: str, question: str, right: str, wrong: str
) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / f"{domain}.txt").write_text(passage, encoding="utf-8")
    config = Config(models=ModelsConfig(reader="packaged"))  # it reads the answers the model hesitated over
    # A model that hesitated over the first word of the wrong span: the reader reads it and refuses it.
    hesitant = ScriptedGenerator(f"{wrong} [1]", sure={wrong.split()[0]: 0.2})
    with Engine.open(tmp_path / "library", config, generator=hesitant) as engine:
        engine.ingest([tmp_path / "docs"])
        answer = engine.ask(question)
    assert answer.decision is Decision.REFUSED, (domain, answer.text, [c.method for c in answer.claims])
    assert answer.refusal is not None and answer.refusal.stage is Stage.FAITHFULNESS, answer.refusal
    assert any(c.method.startswith("reader") for c in answer.claims), [c.method for c in answer.claims]
    # The right span, written as unsure, is what the reader finds: answered.
    right_hesitant = ScriptedGenerator(f"{right} [1]", sure={right.split()[0]: 0.2})
    with Engine.open(tmp_path / "library", config, generator=right_hesitant) as engine:
        answer = engine.ask(question)
    assert answer.decision is Decision.ANSWERED, (domain, answer.text, answer.refusal)
    assert ", reader " in answer.claims[0].method and "model's certainty 0.20" in answer.claims[0].method


def test_reader_slot_is_checked_and_off_by_default(tmp_path: Path, monkeypatch, damaged_copy) -> None:
    assert build_answer_reader(ModelRegistry(ModelsConfig(), tmp_path)) is None
    registry = ModelRegistry(ModelsConfig(reader="packaged"), tmp_path / "cache")
    info = {m.slot: m for m in registry.describe(verify=True)}["reader"]
    assert info.source == "packaged" and info.verified and info.size_bytes > 10_000_000, info.detail
    assert {m.slot: m for m in ModelRegistry(ModelsConfig(), tmp_path).describe()}["reader"].source == "none"
    with pytest.raises(ConfigError, match="packaged or none"):
        build_answer_reader(ModelRegistry(ModelsConfig(reader="mine"), tmp_path))
    damaged = damaged_copy(registry.reader_path(), "reader")
    monkeypatch.setattr(registry_module, "packaged_reader_folder", lambda: damaged)
    with pytest.raises(ModelError, match="damaged"):
        registry.reader_path()
    assert not {m.slot: m for m in registry.describe(verify=True)}["reader"].verified
    (damaged / "model.safetensors").unlink()
    with pytest.raises(ModelError, match="reader = none"):
        registry.reader_path()
