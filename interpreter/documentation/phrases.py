"""The words of the generated rules: phrase tables for the Spec's literal values, and word helpers.

Every literal value the grammar allows (stacking outcomes, results,
forbidden moves, repetition keys, the names and calls of conditions)
has its phrase here, so that :mod:`interpreter.documentation.english`
reads as sentence building, and a test can check that no value lacks one.
"""

from __future__ import annotations


OUTCOMES = {
    "capture": "captures it",
    "capture-top": "captures the top piece of the stack and becomes the new top",
    "capture-bottom": "captures the bottom piece of the stack and takes its place under the top piece, "
                      "where it is locked",
    "capture-both": "captures both pieces of the stack",
    "capture-all": "captures every piece of the stack",
    "climb": "climbs on top of it, locking it",
    "land": "lands on top of it, locking it (this is not a capture)",
    "descend": "comes down from the stack, alone on its cell",
}
"""What each stacking outcome does (the OUTCOME token of the grammar)."""

RESULTS = {
    "loss": "the side to move loses",
    "win": "the side to move wins",
    "draw": "the game is drawn",
    "score": "the game ends and the highest score wins",
    "material": "the game ends and the side with more material wins (see the counting below)",
}
"""What each result of an end rule means (the engine's :class:`~interpreter.engine.outcome.Outcome`:
``loss`` makes every enemy army a winner, ``win`` the side to move, ``draw`` nobody)."""

TEAM_RESULTS = {
    "loss": "the side to move and its partners lose",
    "win": "the side to move and its partners win",
    "draw": "the game is drawn",
    "score": "the game ends and the highest score wins",
    "material": "the game ends and the side with more material wins (see the counting below)",
}
"""The results in a game with teams, where partners share them."""

VALUE_CLAUSES = {
    ("royal_level", "under"): ("its {royal} is locked under another piece (imprisoned)",
                               "its {royal} is not locked under another piece"),
    ("royal_level", "upper"): ("its {royal} stands on top of another piece (a refugee)",
                               "its {royal} does not stand on top of another piece"),
    ("royal_level", "ground"): ("its {royal} stands alone on its cell", "its {royal} is part of a stack"),
    ("royal_above", "enemy"): ("an enemy piece stands on top of its {royal}",
                               "no enemy piece stands on top of its {royal}"),
    ("royal_above", "own"): ("one of its own pieces stands on top of its {royal}",
                             "none of its own pieces stands on top of its {royal}"),
    ("royal_above", "none"): ("nothing stands on top of its {royal}", "a piece stands on top of its {royal}"),
    ("level", "upper"): ("the piece moves from the top of a stack", "the piece does not move from the top of a stack"),
    ("level", "ground"): ("the piece moves from ground level", "the piece does not move from ground level"),
    ("below", "own"): ("the piece it stands on is its own", "the piece it stands on is not its own"),
    ("below", "enemy"): ("the piece it stands on is an enemy's", "the piece it stands on is not an enemy's"),
    ("below", "none"): ("it stands on no piece", "it stands on a piece"),
}
"""Comparisons of a name with one of its text values, as a clause and its negation; ``{royal}`` is
the royal piece's name (or "royal piece")."""

FORBIDDEN = {
    "self-check": "A move may not leave a royal piece of the moving army attacked: a player may not "
                  "move into check, and must get out of check.",
    "partner-check": "Nor may a move leave a partner's royal piece attacked, unless it was already "
                     "attacked before the move.",
    "royal-capture": "A royal piece is never captured: a move that would capture one is not allowed, "
                     "and a royal piece left attacked is dealt with on its own army's turn.",
    "giving-check": "No move may attack an enemy royal piece: giving check is not allowed.",
    "royal-escape": "A royal piece in check may not move, except to capture the piece giving check when it "
                    "is the only one: the other pieces must meet the check.",
}

REPETITION = ("Two positions are the same for repetition when the same pieces stand on the same "
              "cells, the same army is to move and the same castling and en passant rights exist.")

NO_MOVES = {
    "pass": "the army passes, and play goes on with the next army",
    "remove-royal": "its royal pieces in check (or else one royal piece) are removed from the board, and that is its move",
    "rescue": "if several of its royal pieces are in check and a move saves some of them, it plays such a "
              "move, and those still in check are removed from the board as part of it",
    "eliminate": "the army is out of the game: its pieces stay on the board but never move again, attack "
                 "nothing and may be captured for no points, and its turns are skipped",
    "end": "the game ends in a draw",
}

# The evaluation terms of an ``ai`` block, as nouns (dsl.spec.AI_WEIGHTS has their meaning).
AI_TERMS = {"material": "material", "mobility": "the pieces' mobility", "promotion": "promotion chances",
            "zone": "the royal pieces' way to their goal zones", "hand": "the pieces in hand",
            "royal": "keeping royal pieces", "checks": "the checks given", "safety": "the royal pieces' safety",
            "passed": "passed pawns", "activity": "the cells the pieces reach where they stand",
            "structure": "the pawns' structure", "shelter": "the royal pieces' shelter",
            "threats": "threats to the pieces", "pair": "the bishop pair"}
BLOCKERS = {"stacks": "stacks", "singles": "lone pieces", "empty": "empty cells"}
SIDES = {"own": "its own", "enemy": "an enemy", "any": "any"}

CLAUSE_NAMES = {
    "in_check": ("the side to move is in check", "the side to move is not in check"),
    "insufficient_material": ("neither side has enough material left to win (see the signatures below)",
                              "there is enough material left to win"),
    "checked_by_royal": ("an enemy royal piece is among the pieces giving check",
                         "no enemy royal piece is among the pieces giving check"),
    "only_move_by_royal": ("the side to move's only legal move is a move of a royal piece",
                           "the side to move has more than one legal move, or its only one moves no royal piece"),
    "mate_follows": ("after that only move the opponent can checkmate at once",
                     "after that only move the opponent cannot checkmate at once"),
    "checkmated": ("the side to move is checkmated (in check, with no legal move)",
                   "the side to move is not checkmated"),
    "stalemated": ("the side to move is stalemated (no move the rules allow, and not in check)",
                   "the side to move is not stalemated"),
    "partners_stalemated": ("every partner of the side to move would be stalemated too were it to move",
                            "some partner of the side to move could move or is in check"),
    "checked_throughout": ("the side to move has been in check at each of its turns since the position first "
                           "occurred (the enemy gave check with every move)",
                           "the side to move has not been in check at each of its turns since the position "
                           "first occurred"),
    "checking_throughout": ("each move of the side to move since the position first occurred gave check",
                            "not every move of the side to move since the position first occurred gave check"),
}
"""Names that are true or false, as a clause and its negation."""

VALUE_NAMES = {
    "legal_moves": "the number of legal moves of the side to move",
    "repetitions": "the number of times the current position has occurred",
    "clock": "the halfmove clock",
    "fullmove": "the move number",
    "sides": "the number of sides taking turns",
    "royals": "the number of royal pieces of the side to move",
    "enemy_royals": "the number of royal pieces of the enemy armies",
    "pieces": "the number of pieces of the side to move",
    "team_pieces": "the number of pieces of the side to move and its partners",
    "team_royals": "the number of royal pieces of the side to move and its partners",
    "enemy_pieces": "the number of pieces of the enemy armies",
    "army": "the army to move",
    "mode": "the mode being played",
    "checks": "the number of checks the side to move has given",
    "enemy_checks": "the largest number of checks an enemy army has given",
    "armies_left": "the number of armies still in the game",
    "score": "the score of the side to move",
    "lead": "the lead of the best score among the armies in play over every other score",
    "passes": "the number of passes in a row that led to this position",
    "level": "the level the piece moves from",
    "royal_level": "where the side to move's royal piece stands (\"ground\" alone, \"upper\" on top of a stack, "
                   "\"under\" locked below another piece)",
    "royal_above": "the side of the piece on top of the side to move's royal piece (\"own\", \"enemy\" or \"none\")",
    "below": "the side of the piece under the moving piece",
    "height": "the number of pieces in the moving piece's stack (itself included)",
    "file": "the cell's file number",
    "rank": "the cell's rank number",
    "colour": "the cell's colour",
    "type": "the cell's type",
}
"""Names that have a value (numbers or text), as noun phrases."""

ZERO_CLAUSES = {
    "royals": "the side to move has no royal piece left",
    "enemy_royals": "the enemy armies have no royal piece left",
    "pieces": "the side to move has no piece left",
    "enemy_pieces": "the enemy armies have no piece left",
    "team_royals": "the side to move and its partners have no royal piece left",
    "team_pieces": "the side to move and its partners have no piece left",
    "checks": "the side to move has given no check",
}
"""Counts compared with zero (``name == 0``), as clauses."""

ONLY_ROYALS = {
    ("pieces", "royals"): "the side to move has nothing left but royal pieces",
    ("team_pieces", "team_royals"): "the side to move and its partners have nothing left but royal pieces",
    ("enemy_pieces", "enemy_royals"): "the enemy armies have nothing left but royal pieces",
}
"""A count of pieces equal to the count of royal pieces, as a clause."""

BOTH_SIDES = [("pieces", "enemy_pieces"), ("team_pieces", "enemy_pieces"), ("royals", "enemy_royals"),
              ("team_royals", "enemy_royals"), ("royal_in", "enemy_royal_in")]
"""Names and calls said of the side to move (or its team) and of the enemy armies: a condition that
holds for both is said once, "of each side"."""

CALLS = {
    "same_colour": ("all {args} stand on cells of one colour", "the {args} stand on cells of both colours"),
    "royal_in": ("a royal piece of the side to move stands {zone}",
                 "no royal piece of the side to move stands {zone}"),
    "enemy_royal_in": ("an enemy royal piece stands {zone}", "no enemy royal piece stands {zone}"),
    "royal_can_enter": ("a royal piece of the side to move has a legal move that ends {zone}",
                        "no royal piece of the side to move has a legal move that ends {zone}"),
    "count": ("the side to move has a {arg} left", "the side to move has no {arg} left"),
    "enemy_count": ("the enemy armies have a {arg} left", "the enemy armies have no {arg} left"),
    "pieces_in": ("the side to move has {a_piece} standing {zone}", "the side to move has no {piece} standing {zone}"),
    "enemy_pieces_in": ("an enemy army has {a_piece} standing {zone}",
                        "the enemy armies have no {piece} standing {zone}"),
    "safe_pieces_in": ("the side to move has {a_piece} standing {zone} that no enemy piece attacks",
                       "the side to move has no {piece} standing {zone} unattacked by the enemy"),
    "enemy_safe_pieces_in": ("an enemy army has {a_piece} standing {zone} that the side to move does not attack",
                             "the enemy armies have no {piece} standing {zone} unattacked by the side to move"),
    "neighbour": ("the destination is one '{arg}' step from the start",
                  "the destination is not one '{arg}' step from the start"),
    "royals_facing": ("a royal piece of the side to move faces an enemy royal piece along a line of '{arg}' "
                      "steps, with only empty cells between",
                      "no royal piece of the side to move faces an enemy royal piece along a line of '{arg}' steps"),
    "on_ray": ("the destination lies on a '{arg}' line from the start (on an empty board)",
               "the destination does not lie on a '{arg}' line from the start (on an empty board)"),
}
"""Calls in conditions: the clause when true and when negated (a number call: when it is not 0);
``{zone}`` is the zone named by the argument, with its cells ("in the hill zone (`d4`, ...)");
``{piece}``, ``{a_piece}``, ``{pieces}``: the kinds named after the zone ("Pawn or Lance", "a Pawn or
Lance", "Pawns or Lances"; "piece" without one)."""

NUMBER_CALLS = {
    "count": "the number of {args} of the side to move",
    "enemy_count": "the number of {args} of the enemy armies",
    "pieces_in": "the number of {pieces} of the side to move {zone}",
    "enemy_pieces_in": "the number of {pieces} of the enemy armies {zone}",
    "safe_pieces_in": "the number of {pieces} of the side to move {zone} that no enemy piece attacks",
    "enemy_safe_pieces_in": "the number of {pieces} of the enemy armies {zone} that the side to move does not attack",
}
"""Calls whose value is a number, as noun phrases (pieces in hand count too: said once, where the
variant has hands)."""

CELL_PROPERTIES = {"file": "file number", "rank": "rank number", "level": "level number", "colour": "colour",
                   "type": "type"}

COMPARISONS = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most", ">": "is more than",
               ">=": "is at least"}
NEGATED = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}
ARITHMETIC = {"+": "{} plus {}", "-": "{} minus {}", "*": "{} times {}", "//": "{} divided by {}, rounded down",
              "%": "the remainder of {} divided by {}"}


def pretty(name: str) -> str:
    """A name from the rules file as words: ``pawn_start`` -> ``pawn start``."""
    return name.replace("_", " ")


def plural(name: str) -> str:
    """The plural of a piece name: Bishops, Coaches."""
    return name + ("es" if name.endswith(("s", "x", "ch", "sh")) else "s")


def article(word: str) -> str:
    """``a Knight``, ``an Archbishop``, ``a Unicorn`` (a u sounded "you": uni-, use-, usu-)."""
    vowel = word[:1].lower() in "aeiou" and not word.lower().startswith(("uni", "use", "usu"))
    return ("an " if vowel else "a ") + word


def sentence(text: str) -> str:
    """Capitalise the first letter and end with a full stop."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?", ":")) else text + "."


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)
