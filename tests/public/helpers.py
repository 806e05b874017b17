"""Reading the public pages as a player reads them."""


def sides_plain(page: str) -> str:
    """The page with "N–S" and "E–W" read through their no-wrap spans (the sides
    filter: a line never breaks after a side's dash)."""
    for side in ("N–S", "E–W"):
        page = page.replace(f'<span class="nowrap">{side}</span>', side)
    return page
