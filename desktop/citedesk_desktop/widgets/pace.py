"""The pace of long work and the time left at it, in words ("about 3 min")."""

from __future__ import annotations

from collections import deque


class Throughput:
    """Work done per second over the last half minute, and the time left at that pace. Measured from
    the start of a batch, the time before the first passage was embedded (reading a 261-page PDF)
    counted as slow work: the estimate stayed at "about 3 min" while 85 s were left."""

    WINDOW = 30.0  # seconds of samples the pace is measured over
    MIN_SPAN = 3.0  # seconds of progress before any estimate

    def __init__(self) -> None:
        self._samples: deque[tuple[float, int]] = deque()

    def add(self, when: float, done: int) -> None:
        if self._samples and done <= self._samples[-1][1]:
            return  # no progress: the pace is measured between steps of work
        self._samples.append((when, done))
        while len(self._samples) > 2 and when - self._samples[1][0] >= self.WINDOW:
            self._samples.popleft()

    def seconds_left(self, total: int) -> float | None:
        if len(self._samples) < 2:
            return None
        (first, done_first), (last, done_last) = self._samples[0], self._samples[-1]
        if last - first < self.MIN_SPAN or done_last <= done_first:
            return None
        return (total - done_last) * (last - first) / (done_last - done_first)


def duration_words(seconds: float) -> str:
    """ "45 s", "3 min", "1.5 h"."""
    if seconds < 60:
        return f"{max(1, round(seconds))} s"
    if seconds < 3600:
        return f"{round(seconds / 60)} min"
    return f"{seconds / 3600:.1f} h"
