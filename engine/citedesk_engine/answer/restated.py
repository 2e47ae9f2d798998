"""A claim that says its window again, but for an edit that changes what it states.

The gate's guards for claims built of the passage's own words (issue 20's attacks): two spans
exchanged around their relation ("The seller shall reimburse the buyer" against "The buyer shall
reimburse the seller"), a word turned into its opposite, a name or number moved or swapped in from
elsewhere in the passage, two names in the opposite order around their relation. Honest rewrites of
the same words (passive voice, a phrase moved to the other end, a list in another order, a synonym)
are none of these. Figures: benchmarks/attacks (docs/evaluation.md).
"""

from __future__ import annotations

from collections import Counter
from difflib import SequenceMatcher

from .claims import sentences
from .text import ANTONYMS, STOP_STEMS, STOPWORDS, name_sequence, stem, tokens


def roles_swapped(claim: str, window: str) -> bool:
    """Two names of the claim appear in the opposite order around the same relation word in the
    window, and neither sentence is passive ("by"): "Napoleon defeated the Austrian army" / "Austerlitz
    defeated the Napoleon army at Austrian". A claim that is the window with two spans exchanged, names
    or not, is `rewritten`'s ("The seller shall reimburse the buyer")."""
    if " by " in f" {claim.lower()} " or " by " in f" {window.lower()} ":
        return False
    claim_stems, window_stems = participant_words(claim), participant_words(window)
    names = name_sequence(claim)
    in_both = [n for n in dict.fromkeys(names) if n in window_stems and n in claim_stems]
    return len(in_both) >= 2 and _swapped(claim_stems, window_stems, in_both[0], in_both[1], set(names))


def _swapped(claim: list[str], window: list[str], first: str, second: str, ignore: set[str]) -> bool:
    """`first` and `second` stand in the opposite order in the two, with the same relation word (a
    verb, a noun like "wife") between them in both, and close: stopwords and `ignore`d words between
    them do not count, nor does a window in which they are far apart (a title line before the
    sentence, "Scarborough, Toronto: ...")."""
    claim_at = claim.index(first), claim.index(second)
    window_at = window.index(first), window.index(second)
    if (claim_at[0] < claim_at[1]) == (window_at[0] < window_at[1]):
        return False
    lo, hi = sorted(claim_at)
    between_claim = set(claim[lo + 1 : hi][:6]) - STOP_STEMS - STOPWORDS - ignore
    lo, hi = sorted(window_at)
    between_window = window[lo + 1 : hi]
    return len(between_window) <= 8 and bool(between_claim & set(between_window))


def rewritten(claim: str, window: str, passage: str) -> str:
    """The claim says the window again, word for word but for an edit that changes what it states:
    two of its spans exchanged ("from 2004 to 2009" / "from 2009 to 2004", "the laboratory completed
    their analysis" / "their analysis completed the laboratory"), a word turned into its opposite
    ("a better user experience" / "a worse user experience"), or a name or number replaced by another
    one of the passage ("Microsoft isn't obligated" / "Services isn't obligated"). Found by aligning
    the two word sequences (difflib); a restatement is one where most of the claim's words stand in
    the window in order. "" when none of these is found."""
    exchanged = _exchanged_spans(claim, window)
    if exchanged:
        return f"exchanged: {exchanged}"
    claim_words, window_words = tokens(claim), tokens(window)
    a, b = [w.lower() for w in window_words], [w.lower() for w in claim_words]
    matcher = SequenceMatcher(a=a, b=b, autojunk=False)
    if sum(block.size for block in matcher.get_matching_blocks()) < _RESTATED * len(b):
        return ""
    edits = [op for op in matcher.get_opcodes() if op[0] != "equal"]
    replaced = [(a[i1:i2], b[j1:j2]) for tag, i1, i2, j1, j2 in edits if tag == "replace"]
    for n, (old, new) in enumerate(replaced):
        for other_old, other_new in replaced[n + 1 :]:
            if old == other_new and new == other_old and not _commuting(a, old, other_old):
                return f"exchanged: {' '.join(old)} / {' '.join(new)}"
        if len(old) == 1 and len(new) == 1 and _opposites(old[0], new[0]):
            return f"opposite: {old[0]} / {new[0]}"
    moved = _moved_across(edits, a, b)
    if moved:
        return f"exchanged: {moved}"
    passage_words = {w.lower() for w in tokens(passage)}
    # Counted in the sentences of the window the claim restates, not in their neighbours: a name taken
    # from the next sentence into this one is swapped in, one moved within its sentence is not.
    in_claim, in_window = Counter(b), Counter(_restated_sentences(window, matcher))
    for tag, i1, i2, j1, j2 in edits:
        if tag not in ("replace", "insert"):
            continue
        # Moved or re-cased words are not swapped in: a name counts when the claim holds it more often
        # than the window, and one the claim lost when it holds it less often.
        gone = [w for w in window_words[i1:i2] if _named(w) and in_claim[w.lower()] < in_window[w.lower()]]
        brought = [
            w
            for w in claim_words[j1:j2]
            if _named(w) and w.lower() in passage_words and in_claim[w.lower()] > in_window[w.lower()]
        ]
        if brought and (gone or tag == "insert"):
            return f"replaced: {' '.join(window_words[i1:i2]) or '(nothing)'} / {' '.join(brought)}"
    return ""


_RESTATED = 0.7  # share of the claim's words that stand, in order, in the window


def _restated_sentences(window: str, matcher: SequenceMatcher) -> list[str]:
    """The lower-cased words of the window's sentences that hold words the claim restates."""
    matched = {block.a + k for block in matcher.get_matching_blocks() for k in range(block.size)}
    out: list[str] = []
    position = 0
    for sentence in sentences(window) or [window]:
        words_of = [w.lower() for w in tokens(sentence)]
        if matched & set(range(position, position + len(words_of))):
            out.extend(words_of)
        position += len(words_of)
    return out


def _named(word: str) -> bool:
    """A name or a number: what a swapped-in span is made of."""
    if any(ch.isdigit() for ch in word):
        return True
    return word[:1].isupper() and len(word) > 1 and word.lower() not in STOPWORDS


def _exchanged_spans(claim: str, window: str) -> str:
    """The claim is (a stretch of) one sentence of the window with two of its spans exchanged around the
    words between them: "CNN respects the rights of all copyright holders" / "The rights of all
    copyright holders respects CNN". Something must stand between the two (a phrase moved to the
    other end of its sentence is a reordering) and not only "and", "or" (a list's order says
    nothing). An exchange with other edits besides is left to the verifier."""
    said = [w.lower() for w in tokens(claim)]
    for sentence in sentences(window) or [window]:
        words_of = [w.lower() for w in tokens(sentence)]
        # The claim may restate only part of the sentence ("Abstract This article introduces Rcpp").
        stretches = [words_of[k : k + len(said)] for k in range(len(words_of) - len(said) + 1)]
        written = next((w for w in stretches if sorted(w) == sorted(said) and w != said), None)
        if written is None:
            continue
        start = next(i for i, (x, y) in enumerate(zip(written, said, strict=False)) if x != y)
        end = len(written)
        while end > start and written[end - 1] == said[end - 1]:
            end -= 1
        mid_w, mid_c = written[start:end], said[start:end]
        for i in range(1, len(mid_w)):
            for j in range(1, len(mid_w) - i):
                first, middle, second = mid_w[:i], mid_w[i : len(mid_w) - j], mid_w[len(mid_w) - j :]
                if mid_c == second + middle + first and not set(middle) <= {"and", "or", "&"}:
                    return f"{' '.join(first)} / {' '.join(second)}"
    return ""


def _moved_across(edits: list[tuple[str, int, int, int, int]], window: list[str], claim: list[str]) -> str:
    """A name or number of the window that the claim moves past a few words: "from 2004 to 2009" /
    "from 2009 to 2004", "4/135" / "135/4" (difflib sees a move, not two replacements). A phrase moved
    far ("In 2019, sales grew" / "Sales grew in 2019") is a reordering, and a list's order ("A, B and
    C") is no relation."""
    deleted = [(window[i1:i2], i1) for tag, i1, i2, _, _ in edits if tag == "delete"]
    inserted = [(claim[j1:j2], i1) for tag, i1, _, j1, j2 in edits if tag == "insert"]
    for span, at in deleted:
        for other, to in inserted:
            if span != other or len(span) > 3 or not any(_named(w) or w.isdigit() for w in span):
                continue
            crossed = window[min(at + len(span), to) : max(at, to)]
            if 1 <= len(crossed) <= 3 and not all(w in ("and", "or", "&") for w in crossed):
                return f"{' '.join(span)} moved past {' '.join(crossed)}"
    return ""


def _opposites(a: str, b: str) -> bool:
    return any({a, b} == {x, y} for x, y in ANTONYMS)


def _commuting(window: list[str], first: list[str], second: list[str]) -> bool:
    """The two exchanged spans are joined by "and", "or" or a comma only: "cats and dogs" / "dogs and
    cats" say the same."""
    text = " ".join(window)
    at_first, at_second = text.find(" ".join(first)), text.find(" ".join(second))
    lo, hi = sorted((at_first, at_second))
    between = text[lo:hi].split()[len(first if lo == at_first else second) :]
    return bool(between) and all(w in ("and", "or", ",", "&") for w in between)


def participant_words(text: str, *, stemmed: bool = True) -> list[str]:
    """The words of `text` lower-cased (and stemmed), a single capital letter ("alloy A") kept apart
    from the article."""
    return [
        f"<{token}>"
        if len(token) == 1 and token.isupper()
        else stem(token.lower())
        if stemmed
        else token.lower()
        for token in tokens(text)
    ]
