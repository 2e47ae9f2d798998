"""Answering: refusal gates, generation from the evidence, claim splitting and per-claim verification."""
