"""Measuring the pipeline on labelled data: `citedesk verify` (claims) and `citedesk eval` (questions)."""
