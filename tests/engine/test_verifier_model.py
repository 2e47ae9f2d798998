"""The packaged claim verifier on its real weights, through the registry and the per-claim gate."""

from __future__ import annotations

from pathlib import Path

import pytest
from citedesk_engine.answer.verify import ClaimVerifier
from citedesk_engine.config import ModelsConfig, VerifyConfig
from citedesk_engine.errors import ConfigError, ModelError
from citedesk_engine.models import registry as registry_module
from citedesk_engine.models.claim_model import build_claim_judge
from citedesk_engine.models.registry import ModelRegistry

pytestmark = pytest.mark.models

EVIDENCE = (
    "Marie Curie was a Polish and naturalised-French physicist and chemist. She was the first woman "
    "to win a Nobel Prize, and the only person to win Nobel Prizes in two scientific fields."
)


@pytest.fixture(scope="module")
def judge():
    found = build_claim_judge(ModelRegistry(ModelsConfig(), Path("/nonexistent-cache")))
    assert found is not None
    return found


def test_packaged_verifier_tells_support_from_what_the_passage_does_not_say(judge) -> None:
    paraphrase = judge.supported(EVIDENCE, "No woman won a Nobel Prize before Marie Curie did.")
    unrelated = judge.supported(EVIDENCE, "Marie Curie was born in Lisbon in 1901.")
    assert 0.0 <= unrelated < 0.5 < paraphrase <= 1.0, (paraphrase, unrelated)
    # Read with its question, the passage's answer against a name it does not give as the answer.
    question = "Who was the first woman to win a Nobel Prize?"
    assert (
        judge.supported(EVIDENCE, "Marie Curie", question)
        > 0.5
        > judge.supported(EVIDENCE, "Pierre Curie", question)
    )
    # A closing full stop does not change the judgement of an answer (the model learnt it as a sign
    # of hallucination from HaluEval; verifier_pair removes it).
    assert judge.supported(EVIDENCE, "Marie Curie.", question) == judge.supported(
        EVIDENCE, "Marie Curie", question
    )
    # Known weakness (model card): a contradiction built of the passage's own words often passes the
    # model alone; the guards catch the kinds the tests name (numbers, negation, names, roles).


def test_the_gate_with_the_packaged_verifier(judge) -> None:
    verifier = ClaimVerifier(VerifyConfig(), None, lambda: judge)
    assert verifier.check("Marie Curie won Nobel Prizes in two different sciences.", [EVIDENCE]).supported
    for attack in (
        "Marie Curie won Nobel Prizes in three scientific fields.",  # number
        "Marie Curie was not a physicist.",  # added negation
        "Pierre Curie was the first woman to win a Nobel Prize.",  # name
    ):
        verdict = verifier.check(attack, [EVIDENCE])
        assert not verdict.supported, (attack, verdict.method)


def test_verifier_slot_is_checked_and_can_be_switched_off(tmp_path: Path, monkeypatch, damaged_copy) -> None:
    registry = ModelRegistry(ModelsConfig(), tmp_path / "cache")
    info = {m.slot: m for m in registry.describe(verify=True)}["verifier"]
    assert info.source == "packaged" and info.verified and info.size_bytes > 10_000_000, info.detail
    assert build_claim_judge(ModelRegistry(ModelsConfig(verifier="none"), tmp_path)) is None
    with pytest.raises(ConfigError, match="default or none"):
        build_claim_judge(ModelRegistry(ModelsConfig(verifier="mine"), tmp_path))

    damaged = damaged_copy(registry.verifier_path(), "verifier")
    monkeypatch.setattr(registry_module, "packaged_verifier_folder", lambda: damaged)
    with pytest.raises(ModelError, match="damaged"):
        registry.verifier_path()
    assert not {m.slot: m for m in registry.describe(verify=True)}["verifier"].verified
    (damaged / "model.safetensors").unlink()
    with pytest.raises(ModelError, match="verifier = none"):
        registry.verifier_path()
