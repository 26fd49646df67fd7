"""A whole 3-player Faltisia game played by clicking, as two people would: one at a desk, one on a phone.

Two humans and one bot on desktop and phone viewports, with screenshots of each page type saved as test
artifacts; checked along the way: no `[`/`]` lists or `seats` in any history text, the newest event
visible without scrolling the box, no single-option prompt reaches a player, one mail per player per step,
tournaments reachable from the nav and joinable by clicking, no horizontal scroll at 390 px.

alice (desktop, 1280x800) and bob (phone, 390x844) sign up through the header's link, confirm their
address with the mailed link, log out and in again, register for a tournament from the nav, and alice
creates a rated 3-player game with one bot seat through the new-game form; bob joins it from the lobby.
Then each plays every decision with the game page's option buttons until the final scores show (about
90 decisions each: a whole game takes a few minutes). Screenshots: test-artifacts/screenshots/
``ux-whole-<page>-<desktop|phone>.png``.
"""

from __future__ import annotations

import random
import re
import time
from collections import Counter
from dataclasses import dataclass, field

import pytest
from django.core import mail
from playwright.sync_api import Error as PlaywrightError

from games.engines.registry import get_engine
from games.mail.models import Notification, NotificationKind
from games.models import Event, Game, GameStatus
from games.presentation.worded_events import worded_events_for_game
from games.tournaments.models import Entry
from tests.tournaments.helpers import director, make_tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

VIEWPORTS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
PASSWORD = "Tea-and-Scones-1887"
OPTION = "form.decision-form button[name=option]"
# Python's list syntax or the engine's word for positions, never for a person to read:
# "Yellow lecture attended by seats [0, 1, 2]".
PYTHON_TALK = re.compile(r"[\[\]]|\bseats\b", re.IGNORECASE)
GAME_MAIL = (NotificationKind.PROMPT, NotificationKind.RESULT, NotificationKind.FINISHED)

# One round trip per look at the page: what the checks need, read in the browser. The page's text is read
# again only when its fragment changed since the last look (``force``: read it anyway).
LOOK = r"""force => {
  const live = document.getElementById('live'), version = live ? live.dataset.version : '';
  const fresh = force || window.__lookedAt !== version;
  window.__lookedAt = version;
  const box = document.getElementById('history');
  const texts = box && fresh ? Array.from(box.querySelectorAll('.events li'), li => li.textContent.trim()) : [];
  let newest = null;
  const first = box && box.querySelector('details .events li');
  if (first) {
    const b = box.getBoundingClientRect(), r = first.getBoundingClientRect();
    // Inside the box's own visible area, and drawn (its round's section open): seen without scrolling the box.
    newest = {text: first.textContent.trim(), shown: first.offsetParent !== null && r.height > 0
              && r.top >= b.top - 1 && r.bottom <= b.top + box.clientHeight + 1, scrollTop: box.scrollTop};
  }
  const status = document.getElementById('status-line');
  // Seats are 1-based wherever a person reads them, and a bot is "Bot 3", never "bot (bot)".
  const body = fresh ? document.body.innerText : '', found = /\bseat 0\b|\bbot \(bot\)/i.exec(body);
  const words = found && body.slice(Math.max(0, found.index - 40), found.index + 20).replace(/\s+/g, ' ');
  return {texts, newest, words, phase: status ? status.dataset.phase : null,
          options: document.querySelectorAll('form.decision-form button[name=option]').length,
          promptText: (document.querySelector('#decision .prompt-text') || {}).textContent || null,
          finished: !!document.getElementById('result'),
          width: document.documentElement.scrollWidth, inner: window.innerWidth};
}"""


@pytest.fixture(autouse=True)
def fast_polling(settings):
    settings.WEB_POLL_INTERVAL_MS = 250


@dataclass
class Player:
    """One person in their own browser context, and what the checks found on their pages."""

    name: str
    viewport: str
    page: object
    too_wide: list[str] = field(default_factory=list)
    history_seen: set[str] = field(default_factory=set)
    python_talk: list[str] = field(default_factory=list)
    newest_hidden: list[str] = field(default_factory=list)
    single_option: list[str] = field(default_factory=list)
    zero_based: list[str] = field(default_factory=list)
    clicks: int = 0
    shots: set[str] = field(default_factory=set)


@pytest.fixture
def player(chromium_browser, live_server):
    contexts = []

    def make(name: str, viewport: str) -> Player:
        context = chromium_browser.new_context(viewport=VIEWPORTS[viewport], base_url=live_server.url,
                                               timezone_id="Europe/London")
        context.set_default_timeout(15_000)
        contexts.append(context)
        return Player(name=name, viewport=viewport, page=context.new_page())

    yield make
    for c in contexts:
        c.close()


def fits(p: Player, where: str) -> None:
    """Record a page that scrolls sideways (it must not: ``scrollWidth <= innerWidth`` at 390 px)."""
    width, inner = p.page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    if width > inner:
        p.too_wide.append(f"{where}: scrollWidth {width} > innerWidth {inner}")


def shoot(p: Player, name: str, *, full_page: bool = True, screenshot_dir) -> None:
    p.page.screenshot(path=str(screenshot_dir / f"ux-whole-{name}-{p.viewport}.png"), full_page=full_page)
    p.shots.add(name)


def nav(p: Player, link: str) -> None:
    """Follow a link of the site's header, opening the phone's folded menu first."""
    page = p.page
    if page.is_visible("#menu-toggle"):
        page.click("#menu-toggle")
        page.wait_for_selector("#nav-links", state="visible")
    with page.expect_navigation():
        page.click(f"#nav-links >> text={link}")
    fits(p, f"{link} (from the nav)")


def sign_up_and_log_in(p: Player) -> None:
    page = p.page
    page.goto("/")
    fits(p, "welcome")
    nav(p, "Sign up")
    page.fill("#id_username", p.name)
    page.fill("#id_email", f"{p.name}@example.org")
    page.fill("#id_password", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_selector("text=Check your email")
    fits(p, "sign-up sent")
    message = next(m for m in reversed(mail.outbox) if f"{p.name}@example.org" in m.to)
    page.goto(re.search(r"https?://\S+/accounts/verify/\S+/", message.body).group(0))
    page.wait_for_selector("text=Your email address is confirmed")
    fits(p, "email confirmed")
    if page.is_visible("#menu-toggle"):
        page.click("#menu-toggle")
    page.click("#nav-links >> text=Log out")
    page.wait_for_load_state("load")
    nav(p, "Log in")
    page.fill("#id_username", p.name)
    page.fill("#id_password", PASSWORD)
    with page.expect_navigation():
        page.click("form button[type=submit]")
    page.wait_for_selector("#nav-links form[action$='/logout/']", state="attached")
    fits(p, "lobby after log-in")


def register_for_tournament(p: Player, name: str, screenshot_dir) -> None:
    """Tournaments are joinable by clicking: the index from the nav, the tournament's page, its Register button."""
    nav(p, "Tournaments")
    shoot(p, "tournaments", screenshot_dir=screenshot_dir)
    with p.page.expect_navigation():
        p.page.click(f"#open-tournaments >> text={name}")
    fits(p, "tournament page")
    p.page.click("#register")
    p.page.wait_for_selector("text=You are registered")
    fits(p, "tournament registered")


def look(p: Player, *, force: bool = False) -> dict:
    """Read the game page once and check what every page a player sees must hold (see the module docstring)."""
    seen = p.page.evaluate(LOOK, force)
    if seen["width"] > seen["inner"]:
        p.too_wide.append(f"game page at step {seen['phase']}: scrollWidth {seen['width']} > {seen['inner']}")
    for text in seen["texts"]:
        if text not in p.history_seen:
            p.history_seen.add(text)
            if PYTHON_TALK.search(text):
                p.python_talk.append(text)
    if seen["words"] and len(p.zero_based) < 5:
        p.zero_based.append(f"step {seen['phase']}: {seen['words']!r} on the page")
    newest = seen["newest"]
    if newest is not None and not newest["shown"]:
        p.newest_hidden.append(f"step {seen['phase']}: {newest}")
    return seen


def prompt_is_ask_anyway(game: Game, position: int) -> bool:
    game.refresh_from_db()
    prompt = get_engine(game.engine).prompt(game.state, position)
    return prompt is not None and prompt.ask_anyway


def click_an_option(p: Player, rng: random.Random) -> bool:
    """Click one of the offered options (any of them: the game should hold up to every choice) and wait
    for the page to show what comes next. False if the prompt went away between the look and the click."""
    page = p.page
    buttons = page.locator(OPTION)
    count = buttons.count()
    if count == 0:
        return False
    before = page.get_attribute("#live", "data-version")
    try:
        with page.expect_response(lambda r: "/move/" in r.url and r.request.method == "POST", timeout=10_000):
            buttons.nth(rng.randrange(count)).click(timeout=3_000)
    except PlaywrightError:
        return False  # the page's poll swapped the fragment first; look again
    page.wait_for_function("v => document.getElementById('live').dataset.version !== v", arg=before)
    p.clicks += 1
    return True


def mails_per_player_per_step(game: Game, users) -> dict[str, Counter]:
    """From the test outbox (locmem: every message sent), each game mail's step per player.

    A prompt mail belongs to its prompt's step; a result mail of step N reaches a player who has nothing
    to decide in step N+1, so it counts for N+1 (the step the same write opened); the game-over mail counts
    for the step after the last."""
    rows = {n.message_id: n for n in Notification.objects.filter(game=game, kind__in=GAME_MAIL)
            .select_related("prompt")}
    out = {}
    for user in users:
        steps = Counter()
        for m in mail.outbox:
            row = rows.get(m.extra_headers.get("Message-ID"))
            if row is None or user.email not in m.to:
                continue
            if row.kind == NotificationKind.PROMPT:
                steps[row.prompt.phase] += 1
            elif row.kind == NotificationKind.RESULT:
                steps[int(row.dedupe_key.split(":")[2]) + 1] += 1
            else:
                steps["game over"] += 1
        out[user.username] = steps
    return out


EVENT_HEADERS = ("Since your last decision:", "What happened:", "Last events:")


def mail_problems(game: Game, users) -> list[str]:
    """The game mails' event lines in plain English, seats 1-based everywhere in them."""
    ids = set(Notification.objects.filter(game=game, kind__in=GAME_MAIL).values_list("message_id", flat=True))
    addresses = {u.email for u in users}
    problems = []
    for m in mail.outbox:
        if m.extra_headers.get("Message-ID") not in ids or not addresses & set(m.to):
            continue
        body, in_events = m.body, False
        for line in body.splitlines():
            if line.strip() in EVENT_HEADERS:
                in_events = True
            elif in_events and line.startswith("  - "):
                if PYTHON_TALK.search(line):
                    problems.append(f"to {m.to[0]}: {line.strip()}")
            else:
                in_events = False
        if re.search(r"\bseat 0\b", body, re.IGNORECASE):
            problems.append(f"to {m.to[0]}: a 0-based seat in {m.subject!r}")
        # (A prompt mail puts the decision's options first, what happened after them: no order check.)
    return problems


def test_a_whole_three_player_game_by_clicking_on_a_desk_and_a_phone(player, screenshot_dir):
    started = time.monotonic()
    alice, bob = player("alice", "desktop"), player("bob", "phone")
    boss = director()
    cup = make_tournament(boss, name="Whole-game Swiss", engine="faltisia", table_size=3, rounds=2, options={})

    for p in (alice, bob):
        sign_up_and_log_in(p)
        register_for_tournament(p, cup.name, screenshot_dir)
    assert set(Entry.objects.filter(tournament=cup).values_list("user__username", flat=True)) == {"alice", "bob"}

    # The new-game form on both screens; alice fills it in: 3 seats, one played by the computer, rated.
    for p in (bob, alice):
        nav(p, "New game")
        p.page.select_option("#id_game", "faltisia")
        p.page.fill("#id_seats", "3")
        p.page.fill("#id_bots", "1")
        shoot(p, "new-game", screenshot_dir=screenshot_dir)
    alice.page.select_option("#id_clock", "fixed-24h")
    alice.page.check("#id_rated")
    with alice.page.expect_navigation():
        alice.page.click("#new-game button[type=submit]")
    alice.page.wait_for_selector("text=Waiting for players")
    fits(alice, "waiting room")
    game = Game.objects.get()
    assert game.seats.filter(is_bot=True).count() == 1 and game.rated

    # bob finds it among the open games of his lobby and joins with its button.
    nav(bob, "Lobby")
    with bob.page.expect_navigation():
        bob.page.click(f"#open-games li:has(a[href='/games/{game.pk}/']) button:has-text('Join')")
    bob.page.wait_for_selector("text=the game has begun")
    alice.page.wait_for_selector("#status-line")  # alice's waiting room becomes the board by itself
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE
    positions = dict(game.seats.exclude(user=None).values_list("user__username", "position"))
    for p in (alice, bob):  # seats 1-based wherever a person reads them
        assert f"You play seat {positions[p.name] + 1}" in p.page.inner_text("#game-head")
        assert "bot (bot)" not in p.page.inner_text("#live")

    rng = random.Random(11)
    steps_seen: set[str] = set()
    for _ in range(5_000):
        progressed = finished = False
        for p in (alice, bob):
            seen = look(p)
            finished = finished or seen["finished"]
            if seen["phase"]:
                steps_seen.add(seen["phase"])
            if seen["options"] == 1 and not prompt_is_ask_anyway(game, positions[p.name]):
                p.single_option.append(f"step {seen['phase']}: {seen['promptText']}")
            if seen["options"] and len(steps_seen) >= 25 and "decision" not in p.shots:
                mid_game_screenshots(p, game, screenshot_dir)
            progressed = click_an_option(p, rng) or progressed
        if finished and all(look(p)["finished"] for p in (alice, bob)):
            break
        if not progressed:
            alice.page.wait_for_timeout(100)  # the bot and the other page's poll bring the next prompt
    else:
        pytest.fail("the game did not end")
    played_for = time.monotonic() - started

    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    users = [s.user for s in game.seats.select_related("user") if s.user]
    for p in (alice, bob):
        p.page.wait_for_selector("#replay-link")  # without a reload
        shoot(p, "finished", screenshot_dir=screenshot_dir)
        # The history box opens on the newest event, the one the server recorded last for this seat.
        mine = [e for e in Event.objects.filter(game=game).order_by("-id") if e.visible_to(positions[p.name])]
        newest = worded_events_for_game(mine[:1], game=game)[0].text
        assert p.page.inner_text("#history .events li >> nth=0") == newest
        # ... and lists every event this seat may see, each of them read by look() for Python talk.
        assert len(look(p, force=True)["texts"]) == len(mine) > 100
        with p.page.expect_navigation():
            p.page.click("#replay-link")
        replay_checks(p, game, screenshot_dir)
        nav(p, "Lobby")
        shoot(p, "lobby", screenshot_dir=screenshot_dir)
        nav(p, "Leaderboard")
        if p.page.query_selector(".tabs-nav a[href='?game=faltisia']:not([aria-current])"):
            with p.page.expect_navigation():
                p.page.click(".tabs-nav a[href='?game=faltisia']")
        fits(p, "leaderboard")
        ranked = p.page.locator("table.leaderboard tbody").inner_text()
        assert "alice" in ranked and "bob" in ranked  # a rated game: both people ranked, the bot not
        shoot(p, "leaderboard", screenshot_dir=screenshot_dir)
        nav(p, "My profile")
        assert "Maid Knight Saga" in p.page.inner_text("table.ratings")  # the game's name, not its slug
        shoot(p, "profile", screenshot_dir=screenshot_dir)
        nav(p, "Preferences")
        shoot(p, "preferences", screenshot_dir=screenshot_dir)

    # What the players received: one mail per step at most, counted from the outbox.
    per_step = mails_per_player_per_step(game, users)
    twice = {u: {s: n for s, n in c.items() if n > 1} for u, c in per_step.items()}
    assert all(not t for t in twice.values()), twice
    assert all(c["game over"] == 1 for c in per_step.values()), per_step
    assert mail_problems(game, users) == []

    report = {p.name: {"clicks": p.clicks, "history texts": len(p.history_seen), "mails": sum(per_step[p.name].values())}
              for p in (alice, bob)}
    print(f"\nwhole game by clicking: {len(steps_seen)} steps, {played_for:.0f} s, {report}")
    for p in (alice, bob):
        assert p.python_talk == [], p.python_talk
        assert p.newest_hidden == [], p.newest_hidden
        assert p.single_option == [], p.single_option
        assert p.zero_based == [], p.zero_based
        assert p.clicks > 50
    assert [w for p in (alice, bob) for w in p.too_wide] == []
    expected = {"tournaments", "new-game", "game-mid", "decision", "history", "replay", "finished", "lobby",
                "leaderboard", "profile", "preferences"}
    assert all(p.shots >= expected for p in (alice, bob)), [expected - p.shots for p in (alice, bob)]


def mid_game_screenshots(p: Player, game: Game, screenshot_dir) -> None:
    """Mid-game, with a decision open: the whole page, its first screen (the decision) and the history."""
    shoot(p, "game-mid", screenshot_dir=screenshot_dir)
    shoot(p, "decision", full_page=False, screenshot_dir=screenshot_dir)
    p.page.locator("#history").screenshot(path=str(screenshot_dir / f"ux-whole-history-{p.viewport}.png"))
    p.shots.add("history")
    if p.viewport == "phone":  # the decision is on the first screen
        top = p.page.eval_on_selector("#decision", "el => el.getBoundingClientRect().top + window.scrollY")
        assert top < VIEWPORTS["phone"]["height"] - 150


def replay_checks(p: Player, game: Game, screenshot_dir) -> None:
    """The replay after the game: every event text in plain English, steps by its buttons, all seats."""
    page = p.page
    page.wait_for_selector("#replay-nav")
    fits(p, "replay")
    for _ in range(12):
        with page.expect_navigation():
            page.click("#replay-next")
        for text in page.locator("#replay-events li").all_inner_texts():
            if PYTHON_TALK.search(text):
                p.python_talk.append(f"replay: {text}")
    fits(p, "replay, 12 steps in")
    shoot(p, "replay", screenshot_dir=screenshot_dir)
