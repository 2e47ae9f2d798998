"""The time left of long work: from the pace of the last half minute, not from the batch's start."""

from __future__ import annotations

from citedesk_desktop.widgets.pace import Throughput


def test_time_spent_before_the_first_work_does_not_slow_the_estimate() -> None:
    pace = Throughput()
    pace.add(0.0, 0)
    pace.add(20.0, 0)  # reading a long PDF: nothing embedded yet
    for second in range(21, 60):
        pace.add(float(second), (second - 20) * 10)  # then 10 passages a second
    left = pace.seconds_left(1000)
    assert left is not None and abs(left - (1000 - 390) / 10) < 1


def test_the_estimate_follows_a_change_of_pace_within_half_a_minute() -> None:
    pace = Throughput()
    for second in range(0, 60):
        pace.add(float(second), second * 20)  # 20 a second for a minute
    for second in range(60, 100):
        pace.add(float(second), 1200 + (second - 59) * 5)  # then 5 a second
    left = pace.seconds_left(2000)
    assert left is not None and abs(left - (2000 - 1405) / 5) / ((2000 - 1405) / 5) < 0.1


def test_no_estimate_before_three_seconds_of_progress() -> None:
    pace = Throughput()
    assert pace.seconds_left(100) is None
    pace.add(0.0, 1)
    pace.add(2.0, 5)
    assert pace.seconds_left(100) is None
    pace.add(4.0, 9)
    assert pace.seconds_left(100) == (100 - 9) * 4 / 8
