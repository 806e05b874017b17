"""Boards and deals (PBN), and movements (Mitchell, Howell, team match)."""
