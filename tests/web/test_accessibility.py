"""What a screen reader, a keyboard or older eyes need on the table's phone and the console.

Each test holds one finding of the axe-core audit (rule id in the docstring) to the markup
or the style sheet that fixed it.
"""

import re
from pathlib import Path

from tests.web.conftest import contract_post
from tests.web.test_table_flow import board_url

STATIC = Path(__file__).resolve().parents[2] / "static" / "css"


def _relative_luminance(hex_colour: str) -> float:
    channels = [int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(foreground: str, background: str) -> float:
    """WCAG 2 contrast ratio of two #rrggbb colours."""
    lighter, darker = sorted((_relative_luminance(foreground), _relative_luminance(background)),
                             reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def site_colour(name: str) -> str:
    css = (STATIC / "site.css").read_text()
    value = re.search(rf"--{name}:\s*(#[0-9a-fA-F]{{3,6}})", css).group(1)
    return "#" + "".join(c * 2 for c in value[1:]) if len(value) == 4 else value


def rule(css_file: str, selector: str) -> str:
    """The declarations of the rule whose selector list is exactly `selector`."""
    css = (STATIC / css_file).read_text()
    return re.search(re.escape(selector) + r"\s*\{([^}]*)\}", css).group(1)


def test_the_score_box_corner_is_not_an_empty_header(client, event, table1):
    """empty-table-header: the score box's top-left cell heads nothing; a <th> with no
    text is read out as a blank column header."""
    page = client.get(board_url(table1, 1, 1)).content.decode()
    assert "<thead><tr><td></td><th>N–S</th><th>E–W</th></tr></thead>" in page
    assert "<th></th>" not in page


def test_each_denomination_button_is_named_in_words(client, event, table1):
    """A screen reader reads "♠" as a symbol or not at all, and "R♠" as a letter and a
    symbol: each radio button is named by its denomination in words."""
    page = client.get(board_url(table1, 1, 1)).content.decode()
    assert 'id="denomination-S" aria-label="spades"' in page
    assert 'id="denomination-NT" aria-label="no trump"' in page


def test_the_empty_score_box_is_faded_by_colour_not_opacity():
    """color-contrast: before a score the box's labels ("Trick score", "N–S") were drawn
    at 35 % opacity, 2.2:1 on white; the muted grey keeps them at 4.5:1 or better."""
    empty = rule("table.css", ".score-box.empty table, .score-box.empty .net")
    assert "opacity" not in empty
    assert "color:var(--muted)" in empty.replace(" ", "")
    assert contrast(site_colour("muted"), "#ffffff") >= 4.5


def test_the_grid_legend_is_readable_on_its_colours():
    """color-contrast: the legend's swatches sit on the grid's status colours; the note's
    grey on the "agreed" green was 4.33:1, so the swatches' words are in ink."""
    swatch = rule("director.css", ".legend span").replace(" ", "")
    assert "color:var(--ink)" in swatch
    site = (STATIC / "site.css").read_text()
    for status in ("missing", "entered", "confirmed", "agreed"):
        background = re.search(rf"\.status-{status}\s*\{{\s*background:(#[0-9a-f]{{6}}|#fff)",
                               site).group(1)
        background = "#ffffff" if background == "#fff" else background
        assert contrast(site_colour("ink"), background) >= 4.5, status


def test_the_table_traveller_scrolls_by_keyboard(client, event, table1):
    """scrollable-region-focusable: on a phone the traveller is wider than the screen; its
    scrolling box has no link in it, so it takes the focus itself and is named."""
    client.post(board_url(table1, 1, 1), contract_post(token="a11y"))
    page = client.get(f"/t/{table1}/board/1/traveller/").content.decode()
    assert ('<div class="traveller-scroll" role="region" aria-labelledby="traveller-title" '
            'tabindex="0">') in page
    assert 'id="traveller-title"' in page


def test_the_site_header_navigation_is_named(client, event, table1):
    """landmark-unique: the header's links and a page's own navigation are two landmarks;
    each has a name, so a screen reader's list of landmarks tells them apart."""
    page = client.get(f"/t/{table1}/").content.decode()
    assert '<header class="site">\n    <a class="brand" href="/">' in page
    assert '<nav aria-label="Site">' in page


def test_the_console_tables_have_no_blank_column_headers(director_client, mitchell):
    """empty-table-header: the grid's last column (agree a round) and the audit's (undo) are
    named for a screen reader, though the words are plain enough on screen without."""
    grid = director_client.get(f"/director/events/{mitchell.pk}/").content.decode()
    assert '<th><span class="sr-only">Agree</span></th></tr></thead>' in grid
    audit = director_client.get(f"/director/events/{mitchell.pk}/audit/").content.decode()
    assert '<th>Why</th><th><span class="sr-only">Undo</span></th></tr></thead>' in audit
    for page in (grid, audit):
        assert "<th></th>" not in page
