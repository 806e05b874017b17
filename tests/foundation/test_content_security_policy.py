"""Every response carries a strict Content-Security-Policy, and no template needs more.

The policy (config/settings.py) allows no inline script or style, so a template that
brings one back would be broken in the browser (tests/browser/test_content_security_policy.py
sees it there); this test names the template and line at once.
"""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
POLICY = ("default-src 'self'; img-src 'self'; object-src 'none'; base-uri 'none'; "
          "frame-ancestors 'none'; form-action 'self'")
COMMENT = re.compile(r"\{#.*?#\}|\{% comment %\}.*?\{% endcomment %\}", re.S)
TAG = re.compile(r"<[a-zA-Z][^>]*>", re.S)
INLINE = [
    (re.compile(r"<style\b", re.I), "a <style> block"),
    (re.compile(r"<script\b(?![^>]*\bsrc=)[^>]*>", re.I), "an inline <script>"),
    (re.compile(r"\sstyle\s*=", re.I), "a style attribute"),
    (re.compile(r"\son[a-z]+\s*=", re.I), "an on... handler attribute"),
    (re.compile(r"javascript:", re.I), "a javascript: address"),
]


def _directives(header: str) -> set[str]:
    return {part.strip() for part in header.split(";")}


@pytest.mark.django_db
@pytest.mark.parametrize("address", ["/", "/accounts/login/", "/t/", "/api/"])
def test_pages_carry_the_strict_policy(client, address):
    response = client.get(address)
    assert response.status_code == 200
    assert _directives(response["Content-Security-Policy"]) == _directives(POLICY)


@pytest.mark.django_db
def test_the_api_docs_add_data_images_only(client):
    header = client.get("/api/docs/")["Content-Security-Policy"]
    want = _directives(POLICY.replace("img-src 'self'", "img-src 'self' data:"))
    assert _directives(header) == want


def test_no_template_has_inline_script_or_style():
    found = []
    for path in sorted((ROOT / "templates").rglob("*.html")):
        # Template comments may name what they replaced; blank them, keeping the lines.
        text = COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), path.read_text())
        for match in TAG.finditer(text):
            tag = re.sub(r"\{[{%#].*?[}%#]\}", "", match.group(0), flags=re.S)  # template tags
            line = text.count("\n", 0, match.start()) + 1
            found += [f"{path.relative_to(ROOT)}:{line}: {what}"
                      for pattern, what in INLINE if pattern.search(tag)]
    assert not found, "\n".join(found)
