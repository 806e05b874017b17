"""Table codes: short, easy to type on a phone, and not guessable in practice.

Six characters from an alphabet without look-alikes (no 0/O, 1/I/L) give about
700 million codes; with entry throttled per client, guessing one is hopeless.
"""

import secrets

ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
LENGTH = 6


def new_code() -> str:
    from .models import TableCode

    while True:
        code = "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))
        if not TableCode.objects.filter(code=code).exists():
            return code


def normalise(code: str) -> str:
    """What a player typed, as stored: upper case, no spaces or dashes."""
    return "".join(ch for ch in code.upper() if ch.isalnum())
