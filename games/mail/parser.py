"""Read a raw inbound email: who it is for, whether a machine sent it, and the player's own lines.

Forgiving about what people write (quoted text, "On ... wrote:", signatures, HTML-only mail) and
suspicious of everything else: no exception escapes for any input; a message we cannot read is
reported as garbled, never guessed at.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import getaddresses, parseaddr
from html.parser import HTMLParser

from django.core.exceptions import ValidationError
from django.core.validators import validate_email

from games.chat.limits import TEXT_MAX

from .tokens import ReplyTarget, reply_targets

# A line is kept whole up to a chat message's length and its "say"/"tell 2,3" head (a say line carries one,
# games.chat); a longer one is cut past that, so its message is refused as too long rather than sent cut short.
MAX_LINE = TEXT_MAX + 100
MAX_PICK_LINES = 50  # the player's own lines a reply may carry picks on; more are not read (and we say so)
MAX_BODY_CHARS = 100_000  # of decoded text we look at; the first line is near the top anyway

AUTO_SUBJECT = re.compile(
    r"^\s*(auto(matic)?[ -]?(reply|response|antwort)|out of (the )?office|abwesenheit|absence|"
    r"away from (the |my )?(office|desk)|on vacation|r[ée]ponse automatique|"
    r"undeliver(able|ed)|delivery status notification|returned mail|mail delivery (failed|failure|subsystem)|"
    r"failure notice|non[- ]?delivery)", re.IGNORECASE)
ROBOT_SENDERS = re.compile(r"^(mailer-daemon|postmaster|no-?reply|bounces?)([+@]|$)", re.IGNORECASE)
QUOTE_HEADER = re.compile(
    r"^(on\b.{0,200}\bwrote:?|le\b.{0,200}\ba écrit\s*:|am\b.{0,200}\bschrieb.{0,100}:|"
    r"-{2,}\s*original message\s*-{2,}|_{5,}|from:\s.+|sent from my\b.*|begin forwarded message:?)$",
    re.IGNORECASE)


# The subject of one of our mails ("Mage Knight #4: your turn (round 2)"; "[Game #4] ..." in older mails):
# a reply that kept it is not a pick typed in the subject.
OUR_SUBJECT = re.compile(r"^(\[Game #\d+\]|[^:\n]{1,60} #\d+(:|$))")


class GarbledMessage(ValueError):
    """Not an email we can read at all."""


@dataclass(frozen=True)
class ParsedMessage:
    message_key: str  # stable identity for duplicate detection
    from_address: str  # lower-cased addr-spec ("" if none)
    subject: str
    targets: list[ReplyTarget] = field(default_factory=list)  # our reply addresses it was sent to
    references: list[str] = field(default_factory=list)  # Message-IDs in In-Reply-To and References
    auto_reason: str | None = None  # why a machine sent it: never answer those
    first_line: str | None = None
    # The player's own lines, first_line first (at most MAX_PICK_LINES): one pick per line (inbound.py).
    lines: tuple[str, ...] = ()
    more_lines: bool = False  # the message had more of its own lines than MAX_PICK_LINES
    oversized: bool = False
    unknown_charset: bool = False  # its text is in a character set we cannot decode: answered, not guessed


class _HtmlText(HTMLParser):
    """HTML to text lines, dropping quoted parts (<blockquote>, Gmail/Thunderbird quote blocks)."""

    SKIP = {"script", "style", "head", "blockquote", "title"}
    BLOCK = {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "table", "ul", "ol"}
    QUOTE_CLASSES = ("gmail_quote", "moz-cite-prefix", "yahoo_quoted", "divRplyFwdMsg", "OutlookMessageHeader")

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skip_stack: list[str] = []

    def handle_starttag(self, tag, attrs):
        classes = " ".join(v or "" for k, v in attrs if k in ("class", "id"))
        void = tag in ("br", "img", "hr", "meta", "link", "input")
        if not void and (self.skip_stack or tag in self.SKIP or any(q in classes for q in self.QUOTE_CLASSES)):
            self.skip_stack.append(tag)
            return
        if tag in self.BLOCK:
            self.parts.append("\n")

    def handle_endtag(self, tag):
        if self.skip_stack:
            if self.skip_stack[-1] == tag:
                self.skip_stack.pop()
            return
        if tag in self.BLOCK:
            self.parts.append("\n")

    def handle_data(self, data):
        if not self.skip_stack:
            self.parts.append(data)


def html_to_text(html: str) -> str:
    p = _HtmlText()
    try:
        p.feed(html[:MAX_BODY_CHARS])
        p.close()
    except Exception:  # HTMLParser is lenient, but never let markup crash the pipeline
        pass
    return "".join(p.parts)


def meaningful_lines(text: str, limit: int = MAX_PICK_LINES + 1) -> list[str]:
    """The player's own lines, in order, at most ``limit``: no blank or quoted line, nothing from a quote
    header or a signature on (what follows those is not theirs)."""
    found: list[str] = []
    for raw in text[:MAX_BODY_CHARS].splitlines():
        if len(found) >= limit:
            break
        line = raw.replace("\u00a0", " ").strip().strip("\u200b\ufeff")
        if raw.rstrip("\r") in ("-- ", "--") or line == "--":
            break  # the signature starts
        if not line or line.startswith(">") or line.startswith("|"):
            continue
        if QUOTE_HEADER.match(line):
            break  # the quoted original starts here
        found.append(line[:MAX_LINE])
    return found


def first_meaningful_line(text: str) -> str | None:
    """The first line that is the player's own words: not quoted, not a quote header, not a signature."""
    found = meaningful_lines(text, limit=1)
    return found[0] if found else None


class UnknownCharset(ValueError):
    """The message's text is in a character set Python does not know (e.g. ``charset=x-unknown-foo``)."""


def _text_body(msg: EmailMessage) -> str:
    """The plain text (else the HTML as text); UnknownCharset if the only text is in an unknown charset."""
    unknown = False
    for subtype, to_text in (("plain", str), ("html", html_to_text)):
        part = msg.get_body(preferencelist=(subtype,))
        if part is None:
            continue
        try:
            return to_text(part.get_content())
        except LookupError:  # the codec lookup failed: try the other part, else say so to the sender
            unknown = True
    if unknown:
        raise UnknownCharset()
    return ""


def _auto_reason(msg: EmailMessage, from_address: str, subject: str) -> str | None:
    """RFC 3834 and the usual practice: signs that a machine, not the player, sent this."""
    auto = str(msg.get("Auto-Submitted", "") or "").strip().lower()
    if auto and auto != "no":
        return "auto-submitted"
    if str(msg.get("Precedence", "") or "").strip().lower() in ("bulk", "list", "junk", "auto_reply"):
        return "precedence"
    for header in ("X-Autoreply", "X-Autorespond", "X-Auto-Reply", "X-Autoresponder", "List-Id",
                   "List-Unsubscribe", "X-Loop"):
        if msg.get(header) is not None:
            return header.lower()
    return_path = msg.get("Return-Path")
    if return_path is not None and parseaddr(str(return_path))[1] == "" and "<>" in str(return_path).replace(" ", ""):
        return "bounce"
    if ROBOT_SENDERS.match(from_address):
        return "robot-sender"
    if msg.get_content_type() == "multipart/report":
        return "report"
    if AUTO_SUBJECT.match(subject):
        return "auto-subject"
    return None


def _message_key(msg: EmailMessage | None, raw: bytes) -> str:
    try:
        mid = str(msg.get("Message-ID", "") or "").strip() if msg is not None else ""
    except Exception:  # a hostile Message-ID the header parser chokes on: identify by the bytes
        mid = ""
    basis = ("mid:" + mid).encode() if mid else b"raw:" + raw
    return hashlib.sha256(basis).hexdigest()


def _no_nul(text: str | None) -> str | None:
    """Drop NUL characters: never meaningful in mail, and PostgreSQL text columns refuse them."""
    return text.replace("\x00", "") if text else text


def _deliverable(address: str) -> str:
    """``address`` if mail could be sent to it, else "": an answer to garbage would only fail and retry."""
    try:
        validate_email(address)
    except ValidationError:
        return ""
    return address


def parse_message(raw: bytes, *, recipient: str | None = None, max_bytes: int = 256 * 1024) -> ParsedMessage:
    """Parse ``raw``; raise GarbledMessage when there is nothing we can read (no headers at all)."""
    if not isinstance(raw, (bytes, bytearray)) or not raw.strip():
        raise GarbledMessage("empty message")
    oversized = len(raw) > max_bytes
    # An oversized message is judged on its headers only (we will refuse it, but may say why).
    data = bytes(raw[:max_bytes]) if oversized else bytes(raw)
    try:
        msg = BytesParser(policy=policy.default).parsebytes(data, headersonly=oversized)
        headers = {k.lower() for k in msg.keys()}
        if not headers & {"from", "to", "subject", "message-id", "delivered-to"}:
            raise GarbledMessage("no mail headers")
        from_address = parseaddr(str(msg.get("From", "") or ""))[1].strip().lower()[:254]
        subject = " ".join(str(msg.get("Subject", "") or "").split())[:300]
        address_text = " ".join([recipient or ""] + [str(v) for h in ("Delivered-To", "X-Original-To", "To", "Cc",
                                                                      "Envelope-To") for v in msg.get_all(h, [])])
        targets = reply_targets(recipient or "") or reply_targets(address_text)
        refs = []
        for h in ("In-Reply-To", "References"):
            refs += re.findall(r"<[^<>\s\x00]{1,250}>", " ".join(str(v) for v in msg.get_all(h, [])))
        auto = _auto_reason(msg, from_address, subject)
        key = _message_key(msg, data)
        lines: list[str] = []
        unknown_charset = False
        if not oversized and auto is None:
            try:
                lines = meaningful_lines(_text_body(msg))
            except UnknownCharset:
                unknown_charset = True
            if not lines and subject and not unknown_charset:
                # Some people type the answer in the subject of a fresh message.
                bare = re.sub(r"^((re|aw|fwd?|sv|antw)\s*:\s*)+", "", subject, flags=re.IGNORECASE).strip()
                if bare and not OUR_SUBJECT.match(bare):
                    lines = [bare[:MAX_LINE]]
        lines = [line for line in (_no_nul(x) for x in lines) if line]
        more_lines = len(lines) > MAX_PICK_LINES
        lines = lines[:MAX_PICK_LINES]
    except GarbledMessage:
        raise
    except Exception as e:  # the email package raises many things on hostile input
        raise GarbledMessage(f"unreadable message: {type(e).__name__}") from None
    return ParsedMessage(message_key=key, from_address=_deliverable(_no_nul(from_address)), subject=_no_nul(subject),
                         targets=targets, references=refs[:50], auto_reason=auto,
                         first_line=lines[0] if lines else None, lines=tuple(lines), more_lines=more_lines,
                         oversized=oversized, unknown_charset=unknown_charset)


def addresses(value: str) -> list[str]:
    return [a.lower() for _, a in getaddresses([value]) if a]
