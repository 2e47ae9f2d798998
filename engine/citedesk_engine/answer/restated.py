"""A claim that says its window again, but for an edit that changes what it states.

The gate's guards for claims built of the passage's own words (issue 20's attacks): two spans
exchanged around their relation ("The seller shall reimburse the buyer" against "The buyer shall
reimburse the seller"), a word turned into its opposite ("higher" / "lower", "first" / "second"), a
number in the slot of another ("a 23% and 43% lower risk ..., respectively"), a name, number or word
moved or swapped in from elsewhere in the passage, two names in the opposite order around their
relation. Honest rewrites of the same words (passive voice, a phrase moved to the other end, a list
in another order, a synonym, a pronoun or description replaced by the name the passage gives) are
none of these. Figures: benchmarks/attacks, claims.jsonl and the held-out held_out.jsonl
(docs/evaluation.md).
"""

from __future__ import annotations

from collections import Counter
from difflib import SequenceMatcher

from .claims import sentences
from .text import ANTONYMS, STOP_STEMS, STOPWORDS, name_sequence, negated, number_slots, stem, tokens


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
    ("a better user experience" / "a worse user experience"), a number put in another's slot, or a
    name, number or word replaced by another one of the passage ("Microsoft isn't obligated" /
    "Services isn't obligated"). Found by aligning
    the two word sequences (difflib); a restatement is one where most of the claim's words stand in
    the window in order. "" when none of these is found."""
    exchanged = _exchanged_spans(claim, window)
    if exchanged:
        return f"exchanged: {exchanged}"
    claim_words, window_words = tokens(claim), tokens(window)
    a, b = [w.lower() for w in window_words], [w.lower() for w in claim_words]
    matcher = SequenceMatcher(a=a, b=b, autojunk=False)
    flanked = _flanked_opposite(matcher.get_opcodes(), a, b)
    if flanked:
        return f"opposite: {flanked}"
    if sum(block.size for block in matcher.get_matching_blocks()) < _RESTATED * len(b):
        return ""
    slot = _number_in_other_slot(claim, window)
    if slot:
        return f"number slot: {slot}"
    edits = [op for op in matcher.get_opcodes() if op[0] != "equal"]
    replaced = [(a[i1:i2], b[j1:j2]) for tag, i1, i2, j1, j2 in edits if tag == "replace"]
    for n, (old, new) in enumerate(replaced):
        for other_old, other_new in replaced[n + 1 :]:
            if old == other_new and new == other_old and not _commuting(a, old, other_old):
                return f"exchanged: {' '.join(old)} / {' '.join(new)}"
        if len(old) == 1 and len(new) == 1 and _opposites(old[0], new[0]):
            return f"opposite: {old[0]} / {new[0]}"
        if len(new) == 1 and _opposites(old[-1], new[0]):
            # "before (to the left of) any entries" against "... which comes after (to the right
            # of) any entries": the claim opens at the window's last word before the words they share.
            return f"opposite: {old[-1]} / {new[0]}"
        if len(old) == 1 and len(new) == 1 and {old[0], new[0]} <= ORDINALS:
            return f"ordinal: {old[0]} / {new[0]}"
    moved = _moved_across(edits, a, b)
    if moved:
        return f"exchanged: {moved}"
    swapped = _swapped_in(claim_words, window, passage)
    return f"replaced: {swapped}" if swapped else ""


def inverted_comparison(claim: str, window: str) -> str:
    """The claim compares the same two things as a sentence of the window, in the same order, with
    the opposite comparative: "Yes, boda is quicker to run than the Farrington procedures" against
    "monitoring with boda is substantially slower than using the Farrington procedures". A claim in
    other words than its window's is no restatement for `rewritten`, so the two sides are read around
    "than": the words before the comparative and those after "than" must each share a content word
    with the same side of the window's comparison, and share more with the same sides than across.
    The comparison read the other way round ("the Farrington procedures are quicker than boda") says
    the same and passes; a negated claim or sentence ("is not slower than") is the negation guard's,
    and a bound with another number ("less than 305 million" against "more than 300 million") the
    verifier's. "" when none is found."""
    if negated(claim):
        return ""
    said = _comparisons(claim)
    for sentence in sentences(window) or [window]:
        if negated(sentence):
            continue
        for word, left, right in said:
            for other, w_left, w_right in _comparisons(sentence):
                if not _opposites(word, other) or _bound(right) != _bound(w_right):
                    continue
                same, across = (
                    len(left & w_left) + len(right & w_right),
                    len(left & w_right) + len(right & w_left),
                )
                if left & w_left and right & w_right and same > across:
                    return f"opposite: {other} / {word}"
    return ""


def _comparisons(text: str) -> list[tuple[str, set[str], set[str]]]:
    """Each comparison "... X-er (a few words) than ..." of `text` whose comparative has an opposite:
    (the comparative, the content words before it, those after "than"), a word on both sides ("alloy
    A" / "alloy B") counting on neither."""
    said = participant_words(text, stemmed=False)
    found = []
    for at, word in enumerate(said):
        if word != "than":
            continue
        for k in range(at - 1, max(-1, at - 4), -1):
            if said[k] in _COMPARED:
                before = {stem(w) for w in said[:k]} - STOP_STEMS
                after = {stem(w) for w in said[at + 1 :]} - STOP_STEMS
                # A bound's number is its side ("more than 300 million" / "less than 305 million").
                bound = {w for w in said[at + 1 : at + 3] if w[0].isdigit()}
                found.append((said[k], before - after, (after - before) | {f"#{n}" for n in bound}))
                break
    return found


def _bound(side: set[str]) -> set[str]:
    return {w for w in side if w.startswith("#")}


_COMPARED = frozenset(word for pair in ANTONYMS for word in pair)


def _swapped_in(claim_words: list[str], window: str, passage: str) -> str:
    """A word of the passage from outside what the claim restates, put in the place of one the claim
    drops ("Daniels, whose real name is ..." / "BBC, whose real name is ...", "Coronary
    atherosclerotic burden" / "mellitus atherosclerotic burden"). Aligned to the one sentence of the
    window the claim restates (else the whole window), and counted in the stretch of it the claim
    restates: a word moved within that stretch is not swapped in, nor one said twice in it."""
    b = [w.lower() for w in claim_words]
    candidates = [tokens(sentence) for sentence in sentences(window)]
    restated_words, matcher = tokens(window), None
    best = 0
    for words_of in candidates:
        m = SequenceMatcher(a=[w.lower() for w in words_of], b=b, autojunk=False)
        size = sum(block.size for block in m.get_matching_blocks())
        if size >= _RESTATED * len(b) and size > best:
            restated_words, matcher, best = words_of, m, size
    a = [w.lower() for w in restated_words]
    if matcher is None:
        matcher = SequenceMatcher(a=a, b=b, autojunk=False)
    edits = [op for op in matcher.get_opcodes() if op[0] != "equal"]
    inner = [op for op in matcher.get_opcodes() if op[0] != "delete"]
    lo, hi = (inner[0][1], inner[-1][2]) if inner else (0, len(a))
    passage_words = {w.lower() for w in tokens(passage)}
    in_claim, in_stretch, in_sentence = Counter(b), Counter(a[lo:hi]), Counter(a)
    # A phrase the claim moves (passive voice: "Flight nurses performed ..." / "... were performed by
    # flight nurses") is deleted at one end and said at the other: its words are restated, not brought.
    said = set(b)
    for tag, i1, i2, _, _ in matcher.get_opcodes():
        telling = [w for w in a[i1:i2] if _telling(w)]
        if tag == "delete" and not lo <= i1 < hi and telling and _share(telling, said) >= 0.5:
            in_stretch.update(a[i1:i2])
    for tag, i1, i2, j1, j2 in edits:
        if tag not in ("replace", "insert"):
            continue
        # A name or number counts, and any content word swapped one for one ("Coronary" / "mellitus"):
        # a longer rewrite that brings a word of the passage is often the name a description stands for
        # ("the famous ostinato" / "James Horner's ostinato"), which the verifier judges.
        one_for_one = tag == "replace" and i2 - i1 == 1 and j2 - j1 == 1
        counts = _telling if one_for_one else _named
        # Moved or re-cased words are not swapped in: a word counts when the claim holds it more often
        # than the stretch, and one the claim lost when it holds it less often.
        gone = [w for w in restated_words[i1:i2] if counts(w) and in_claim[w.lower()] < in_stretch[w.lower()]]
        # A word the sentence says outside the stretch is moved, unless it takes one word's place.
        elsewhere = in_stretch if one_for_one else in_sentence
        brought = [
            w
            for w in claim_words[j1:j2]
            if counts(w) and w.lower() in passage_words and in_claim[w.lower()] > elsewhere[w.lower()]
        ]
        if brought and (gone or tag == "insert"):
            return f"{' '.join(restated_words[i1:i2]) or '(nothing)'} / {' '.join(brought)}"
    return ""


def _share(items: list[str], among: set[str]) -> float:
    return sum(1 for item in items if item in among) / len(items)


def _telling(word: str) -> bool:
    """A name, a number or a content word: what a swapped-in span is made of."""
    return _named(word) or (len(word) >= 3 and word.isalpha() and word.lower() not in STOPWORDS)


_RESTATED = 0.7  # share of the claim's words that stand, in order, in the window (or one sentence)


def _number_in_other_slot(claim: str, window: str) -> str:
    """A number of the claim stands between the same two words as another number of the window, and
    the window never puts it there: "a 23% and 43% lower risk of A and B, respectively" / "a 43% and
    23% ...", "Section 5) as described in apt.conf(6.5)" / "Section 6.5) ... apt.conf(5)". Numbers
    next to each other share a slot, so a list of them in another order ("5, 10 and 20") is no move."""
    held: dict[tuple[str, str], set[str]] = {}
    for sentence in sentences(window) or [window]:
        for number, slot in number_slots(sentence):
            held.setdefault(slot, set()).add(number)
    for number, slot in (pair for sentence in sentences(claim) or [claim] for pair in number_slots(sentence)):
        there = held.get(slot)
        # A sentence's edge is no context: "in Section 2.7.13." and "(see Section 9.10)." share "section".
        if there and number not in there and "^" not in slot and "$" not in slot:
            return f"{number} where the passage has {' or '.join(sorted(there))}"
    return ""


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


# "He had first used the line" / "second used": another place in an order is another fact.
ORDINALS = frozenset(
    "first second third fourth fifth sixth seventh eighth ninth tenth last penultimate "
    "1st 2nd 3rd 4th 5th 6th 7th 8th 9th 10th".split()
)


_FLANK = 2  # words the claim and the window share on each side of a word turned into its opposite


def _flanked_opposite(ops: list[tuple[str, int, int, int, int]], a: list[str], b: list[str]) -> str:
    """A word of the window turned into its opposite between words both write alike, at least two
    on each side, however little else of the claim is the window's: "The insertion point is before
    (to the left of) any existing entries" against bisect's "... an insertion point which comes
    after (to the right of) any existing entries" (a window session: shown as verified, 0.75)."""
    for n in range(1, len(ops) - 1):
        tag, i1, i2, j1, j2 = ops[n]
        before, after = ops[n - 1], ops[n + 1]
        if (
            tag == "replace"
            and i2 - i1 == 1
            and j2 - j1 == 1
            and _opposites(a[i1], b[j1])
            and before[0] == "equal"
            and after[0] == "equal"
            and min(before[2] - before[1], after[2] - after[1]) >= _FLANK
        ):
            return f"{a[i1]} / {b[j1]}"
    return ""


def _opposites(a: str, b: str) -> bool:
    return any({a, b} == {x, y} for x, y in ANTONYMS)


def _commuting(window: list[str], first: list[str], second: list[str]) -> bool:
    """The two exchanged spans are joined by "and", "or" or a comma only: "cats and dogs" / "dogs and
    cats" say the same."""
    text = " ".join(window)
    if "respectively" in window:
        # "43% and 23% lower risk of A and B, respectively": each item of the list has its partner.
        return False
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
