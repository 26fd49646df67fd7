"""Which mail the mail worker takes first when it has a backlog, so every due reminder goes on time.

The mail queue is one FIFO per priority level in Redis (kombu's redis transport keeps a list per step of
``priority_steps`` and its BRPOP asks for the lower number first). Mail that a player must act on before
a deadline is TIME_BOUND: the prompt ("your turn"), the deadline reminder and the answer to an emailed
pick, and the tasks that produce them (the prompt task and sweep, the reminders task). What only tells
the news is NEWS: step results, game over and digests, and the tasks and sweeps that render them. A load
burst of results (a result mail per reader per resolved step) so waits behind the prompts and reminders
instead of pushing a reminder past its deadline; NEWS still goes out as soon as the time-bound mail is
done, and a lasting backlog of it says the node needs another mail worker (docs/deploy.md).

Eager mode (tests, the embedded server) runs tasks in-process and ignores priorities.
"""

from __future__ import annotations

from .models import NotificationKind

TIME_BOUND = 0  # with Redis, 0 is served first; a message without a priority counts as 0
NEWS = 6  # a step of kombu's default priority_steps (0, 3, 6, 9)

_NEWS_KINDS = frozenset({NotificationKind.RESULT, NotificationKind.FINISHED, NotificationKind.DIGEST,
                         NotificationKind.CHAT, NotificationKind.MODERATION})  # table talk is news too


def send_priority(kind: str) -> int:
    """The priority of the send task of an outbox row of this kind."""
    return NEWS if kind in _NEWS_KINDS else TIME_BOUND
