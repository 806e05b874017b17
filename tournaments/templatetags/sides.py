"""``sides``: keep "N–S" and "E–W" on one line wherever a sentence wraps.

An en dash is a place where a line may break, so "E–W" can end up as "E–" and "W"
on a narrow phone. ``{{ text|sides }}`` escapes the text and wraps each "N–S" and
"E–W" in a ``<span class="nowrap">`` (site.css).
"""

import re

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

SIDE = re.compile(r"\b(N–S|E–W)\b")


@register.filter(is_safe=True)
def sides(text: object) -> SafeString:
    escaped = str(conditional_escape(text))
    return mark_safe(SIDE.sub(r'<span class="nowrap">\1</span>', escaped))  # noqa: S308 - escaped above
