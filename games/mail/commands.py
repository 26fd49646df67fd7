"""What the first meaningful line of a reply asks for: a pick (number or option id) or a command."""

from __future__ import annotations

import re
from dataclasses import dataclass

COMMANDS = ("status", "help", "orders", "vacation")
# Option numbers are ASCII digits only: Python's \d and int() also read "١" (Arabic-Indic one) or "１" (full
# width) as 1, and a line the player did not mean as a number must not pick. Spaces stay
# Unicode (\s): mail clients put no-break spaces between a number and its label.
DIGITS = "[0-9]"
_PICK = re.compile(rf"^(?:(?:pick|option|choose|choice)\s*)?[#(\[]?\s*({DIGITS}{{1,4}})\s*[.)\]:]?(?:\s.*)?$",
                   re.IGNORECASE)
_WHOLE_NUMBER = re.compile(rf"{DIGITS}{{1,4}}")


# A take-back line: "undo" takes back the last pick, "undo turn" every pick back to the turn's start.
UNDO_LINES = {("undo",): "last", ("undo", "last"): "last", ("undo", "turn"): "turn"}


@dataclass(frozen=True)
class Command:
    name: str  # "pick", "undo", one of COMMANDS, or "empty"
    args: tuple[str, ...] = ()
    number: int | None = None  # a pick by its number in the list
    text: str = ""  # the line as written (a pick by option id or label)


def command_parse(line: str | None) -> Command:
    if line is None or not line.strip():
        return Command("empty")
    text = line.strip()
    words = text.split()
    head = words[0].lower().rstrip(":.!")
    if head in COMMANDS or head == "?":
        return Command("help" if head == "?" else head, tuple(w.strip(",") for w in words[1:6]), text=text)
    target = undo_target(text)
    if target is not None:
        return Command("undo", (target,), text=text)
    if head == "order" or head == "standing":
        return Command("orders", tuple(w.strip(",") for w in words[1:6] if w.lower() != "orders"), text=text)
    m = _PICK.match(text)
    if m:
        return Command("pick", number=int(m.group(1)), text=text)
    return Command("pick", text=text)


def undo_target(line: str) -> str | None:
    """"last" or "turn" if ``line`` is a take-back line ("undo", "undo turn"), else None."""
    return UNDO_LINES.get(tuple(line.strip().lower().rstrip(".!").split()))


def whole_number(word: str) -> int | None:
    """``word`` as a number if it is 1-4 ASCII digits (a command's argument: "vacation 5"), else None."""
    return int(word) if _WHOLE_NUMBER.fullmatch(word) else None


def _named(text: str, options: list[dict]) -> dict | None:
    """The option whose id or label is exactly ``text`` (an id as written first, then any case)."""
    wanted = text.strip().strip(".").strip()
    for o in options:
        if o["id"] == wanted:
            return o
    low = wanted.lower()
    for o in options:
        if o["id"].lower() == low or o["label"].strip().lower() == low:
            return o
    return None


def option_for(command: Command, options: list[dict]) -> dict | None:
    """The option a pick names: by its id or label (case-insensitive), else by its number in the list.

    The whole line as an id or label comes first: a label may begin with a number ("1 Nightmare Point(s)"
    is option 2 when it is option 2's label, not option 1).
    """
    named = _named(command.text, options) if command.text else None
    if named is not None:
        return named
    if command.number is not None:
        if 1 <= command.number <= len(options):
            return options[command.number - 1]
        return None
    return None


_NUMBERED = re.compile(rf"^(?:(?:pick|option|choose|choice)\s*)?[#(\[]?\s*({DIGITS}{{1,4}})\s*[.)\]:]?\s*(.*?)\s*$",
                       re.IGNORECASE)
_TRAILING_ID = re.compile(r"\s*\[[^\[\]]*\]$")


def option_for_line(line: str, options: list[dict]) -> dict | None:
    """The option a later line of a reply names, the whole line counting (unlike the first line, where
    words after the number are a comment): its id or label, its number alone ("2", "2.", "#2", "(2)"), or
    its number with its label as the email lists it ("2. Buy Eliza Orne  [buy-C3EO1]"). A line of prose
    that merely begins with a number ("1 more thing: ...") names nothing, so it stops the reply."""
    named = _named(line, options)
    if named is not None:
        return named
    m = _NUMBERED.match(line.strip())
    if m is None or not 1 <= int(m.group(1)) <= len(options):
        return None
    option, rest = options[int(m.group(1)) - 1], m.group(2)
    if not rest:
        return option
    if rest.lower() == f"[{option['id']}]".lower():
        return option
    label = _TRAILING_ID.sub("", rest).strip().rstrip(".").strip()
    return option if label.lower() == option["label"].strip().rstrip(".").strip().lower() else None
