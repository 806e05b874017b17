"""A small DTD validator for the tests (element content models, attributes), for when lxml
is not installed; the lxml test validates the same files with lxml's own DTD support."""

from __future__ import annotations

import re
from pathlib import Path
from xml.etree import ElementTree as ET

_DECL = re.compile(r"<!(ELEMENT|ATTLIST)\s+([A-Za-z_][\w.-]*)\s+(.*?)>", re.S)
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_NAME = re.compile(r"[A-Za-z_][\w.-]*")
_ATTR = re.compile(r'([A-Za-z_][\w.-]*)\s+(CDATA|\([^)]*\))\s+(#REQUIRED|#IMPLIED|'
                   r'#FIXED\s+"[^"]*"|"[^"]*")')


class Dtd:
    def __init__(self, text: str):
        self.models: dict[str, str] = {}
        self.attributes: dict[str, dict[str, tuple[str, str]]] = {}
        for kind, name, body in _DECL.findall(_COMMENT.sub("", text)):
            body = " ".join(body.split())
            if kind == "ELEMENT":
                self.models[name] = body
            else:
                for attr, kind_, default in _ATTR.findall(body):
                    self.attributes.setdefault(name, {})[attr] = (kind_, default)

    @classmethod
    def from_file(cls, path: Path) -> Dtd:
        return cls(path.read_text(encoding="utf-8"))

    def errors(self, root: ET.Element) -> list[str]:
        problems: list[str] = []
        for element in root.iter():
            problems += self._element_errors(element)
        return problems

    def _element_errors(self, el: ET.Element) -> list[str]:
        model = self.models.get(el.tag)
        if model is None:
            return [f"<{el.tag}> is not declared"]
        problems = self._attribute_errors(el)
        children = [c.tag for c in el]
        text = (el.text or "").strip() or any((c.tail or "").strip() for c in el)
        if model == "EMPTY":
            if children or text:
                problems.append(f"<{el.tag}> must be empty")
        elif model == "(#PCDATA)":
            if children:
                problems.append(f"<{el.tag}> holds only text, not {children}")
        elif model.startswith("(#PCDATA"):
            allowed = set(_NAME.findall(model.replace("#PCDATA", "")))
            problems += [f"<{c}> is not allowed in <{el.tag}>" for c in children
                         if c not in allowed]
        elif model != "ANY":
            if text:
                problems.append(f"<{el.tag}> may not hold text")
            pattern = _NAME.sub(lambda m: f"(?:<{m.group()}>)", model.replace(",", ""))
            if not re.fullmatch(pattern.replace(" ", ""), "".join(f"<{c}>" for c in children)):
                problems.append(f"<{el.tag}>'s children {children} do not match {model}")
        return problems

    def _attribute_errors(self, el: ET.Element) -> list[str]:
        declared = self.attributes.get(el.tag, {})
        problems = [f"<{el.tag}> has an undeclared attribute {a}" for a in el.attrib
                    if a not in declared]
        for name, (kind, default) in declared.items():
            value = el.get(name)
            if value is None:
                if default == "#REQUIRED":
                    problems.append(f"<{el.tag}> needs the attribute {name}")
                continue
            if kind.startswith("(") and value not in _NAME.findall(kind):
                problems.append(f"<{el.tag} {name}={value!r}> is not one of {kind}")
        return problems
