"""What the first meaningful line of a reply asks for: a pick (number or option id) or a command."""

from __future__ import annotations

import re
from dataclasses import dataclass

COMMANDS = ("status", "help", "orders", "vacation")
_PICK = re.compile(r"^(?:(?:pick|option|choose|choice)\s*)?[#(\[]?\s*(\d{1,4})\s*[.)\]:]?(?:\s.*)?$", re.IGNORECASE)


@dataclass(frozen=True)
class Command:
    name: str  # "pick", one of COMMANDS, or "empty"
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
    if head == "order" or head == "standing":
        return Command("orders", tuple(w.strip(",") for w in words[1:6] if w.lower() != "orders"), text=text)
    m = _PICK.match(text)
    if m:
        return Command("pick", number=int(m.group(1)), text=text)
    return Command("pick", text=text)


def option_for(command: Command, options: list[dict]) -> dict | None:
    """The option a pick names: by its number, its id, or its label (case-insensitive)."""
    if command.number is not None:
        if 1 <= command.number <= len(options):
            return options[command.number - 1]
        return None
    wanted = command.text.strip().strip(".").strip()
    for o in options:
        if o["id"] == wanted:
            return o
    low = wanted.lower()
    for o in options:
        if o["id"].lower() == low or o["label"].strip().lower() == low:
            return o
    return None
