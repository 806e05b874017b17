"""Phone, tablet and desktop layout: no page scrolls sideways, the level buttons share one row.

At 390 px (a phone) and 768 px (a tablet) every page a player or the director uses
must fit the window's width (document.documentElement.scrollWidth <= innerWidth): the
table's pages, the public pair page with its personal score card, and the director's
console (the grid, the event page, the forms). Screenshots at 390, 768 and 1280 px go
to test-artifacts/browser/.
"""

from __future__ import annotations

import pytest
from django.db.models import F

from tests.browser.conftest import DESKTOP, PHONE, log_in
from tournaments.models import Event

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TABLET = {"viewport": {"width": 768, "height": 1024}, "device_scale_factor": 2,
          "is_mobile": True, "has_touch": True}
SIZES = {390: PHONE, 768: TABLET, 1280: DESKTOP}

# How wide the page is against the window it was given. (A mobile browser widens its
# layout viewport, and so window.innerWidth, to fit a page that is too wide: so the
# page is held to the device's width as well.)
OVERFLOW_JS = """device => {
  const width = Math.min(window.innerWidth, device);
  const wide = Array.from(document.querySelectorAll('body *'))
    .filter(el => el.getBoundingClientRect().right > width + 1)
    .slice(0, 6).map(el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '')
      + (typeof el.className === 'string' && el.className ? '.' + el.className : ''));
  // Score cards must show every column without scrolling inside their box either.
  const cards = Array.from(document.querySelectorAll('[data-testid=scorecard]'))
    .filter(el => el.parentElement.scrollWidth > el.parentElement.clientWidth + 1).length;
  return {scroll: Math.max(document.documentElement.scrollWidth, window.innerWidth),
          width, wide, cards};
}"""


# Every "N–S" / "E–W" written on the page whose two letters land on different lines.
WRAPPED_JS = """() => {
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const broken = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const match of node.textContent.matchAll(/[NE]\u2013[SW]/g)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + 3);
      const tops = new Set(Array.from(range.getClientRects()).filter(r => r.width > 0)
        .map(r => Math.round(r.top)));
      if (tops.size > 1) broken.push(node.parentElement.tagName + ': ' + node.textContent.trim());
    }
  }
  return broken;
}"""


def _context(browser, width: int, *, director=None):
    context = browser.chromium.new_context(base_url=browser.base_url, **SIZES[width])
    context.set_default_timeout(10_000)
    browser.contexts.append(context)
    page = context.new_page()
    browser.watch(page)
    if director is not None:
        log_in(page, director)
    return page


def _check(browser, page, url: str, name: str, width: int, problems: list[str]) -> None:
    response = page.goto(url)
    assert response.status < 400, f"{url}: {response.status}"
    browser.shot(page, f"{name} {width}")
    if width == 1280:
        return
    fit = page.evaluate(OVERFLOW_JS, width)
    if fit["scroll"] > fit["width"]:
        problems.append(f"{name} at {width} px: {fit['scroll']} px wide ({fit['wide']})")
    if fit["cards"]:
        problems.append(f"{name} at {width} px: the score card scrolls sideways")
    broken = page.evaluate(WRAPPED_JS)
    if broken:
        problems.append(f"{name} at {width} px: N–S or E–W broken over two lines: {broken}")


def _night_urls(night) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(players' pages, director's pages) of a night half played."""
    played = night.meeting(1, 1)
    meeting = night.meeting(2, 1)  # not played yet: the director enters it from the console
    # Round 1 is played, but for table 1's last board: its phone shows that board's form
    # (a table enters only the round it is at, and table 1 is still at round 1).
    night.play(keep=lambda meeting, board: meeting.round == 1 and not (
        meeting.pk == played.pk and board == played.boards[-1]))
    event, code = night.event, night.code(1)
    players = [
        ("/", "home"),
        ("/t/?new=1", "table code"),
        (f"/t/{code}/round/1/", "table round"),
        (f"/t/{code}/round/1/board/{played.boards[-1]}/", "table board form"),
        (f"/t/{code}/round/1/board/{played.boards[0]}/", "table result"),
        (f"/events/{event.pk}/", "public event"),
        (f"/events/{event.pk}/standings/", "public standings"),
        (f"/events/{event.pk}/pairs/{played.ns_pair.number}/", "public pair"),
        (f"/events/{event.pk}/boards/{played.boards[0]}/", "public board"),
    ]
    base = f"/director/events/{event.pk}/"
    director = [
        ("/director/", "console events"),
        ("/director/events/new/", "console new event"),
        (base, "console event and grid"),
        (base + "pairs/", "console pairs"),
        (base + "movement/", "console movement"),
        (base + "boards/", "console boards"),
        (base + "tables/", "console tables"),
        (base + "guide-cards/", "console guide cards"),
        (base + f"meetings/{played.pk}/", "console meeting"),
        (base + f"meetings/{meeting.pk}/boards/{meeting.boards[0]}/enter/", "console result"),
        (base + "audit/", "console audit"),
    ]
    return players, director


def test_no_page_scrolls_sideways_on_a_phone_or_a_tablet(browser, night):
    players, director = _night_urls(night)
    problems: list[str] = []
    for width in SIZES:
        page = _context(browser, width)
        for url, name in players:
            _check(browser, page, url, name, width, problems)
        console = _context(browser, width, director=night.director)
        for url, name in director:
            _check(browser, console, url, name, width, problems)
    assert not problems, "pages wider than the window:\n" + "\n".join(problems)


@pytest.mark.parametrize("width", [390, 768])
def test_the_level_buttons_share_one_row(browser, night, width):
    meeting = night.meeting(1, 1)
    page = _context(browser, width)
    page.goto(f"/t/{night.code(1)}/round/1/board/{meeting.boards[0]}/")
    tops = page.eval_on_selector_all(
        "input[name=level] + span",
        "els => els.map(e => Math.round(e.getBoundingClientRect().top))")
    assert len(tops) == 7
    assert len(set(tops)) == 1, f"the level buttons wrap: tops {tops}"
    assert page.evaluate(WRAPPED_JS) == []


def test_a_matchpoint_score_card_fits_a_phone_with_its_widest_numbers(browser, night):
    """A matchpoint card's numbers can run to twelfths (a board not played, scored by
    Neuberg): "5⁵⁄₁₂" matchpoints, a running total of "42⁵⁄₁₂". With every cell that wide the
    card still shows every column at 390 px without scrolling inside its box."""
    night.play()
    Event.objects.filter(pk=night.event.pk).update(method="matchpoints",
                                                   seq=F("seq") + 1)
    page = _context(browser, 390)
    page.goto(f"/events/{night.event.pk}/pairs/1/")
    widened = page.evaluate("""() => {
      const cells = [...document.querySelectorAll('[data-testid=matchpoints]')];
      cells.forEach(td => td.textContent = '5\u2075\u2044\u2081\u2082');
      document.querySelectorAll('[data-testid=running]')
        .forEach(td => td.textContent = '42\u2075\u2044\u2081\u2082');
      return cells.length;
    }""")
    assert widened == 6  # the pair's every board (three rounds of two), each now as wide
    # as a card's numbers get
    browser.shot(page, "matchpoint card in twelfths 390")
    fit = page.evaluate(OVERFLOW_JS, 390)
    assert not fit["cards"] and fit["scroll"] <= fit["width"], fit
