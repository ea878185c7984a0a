"""Fairy-Stockfish's vocabulary: its piece kinds, its settings with their defaults and their fate in the
language, and its FEN dialect.

Read from the header of Fairy-Stockfish's variants.ini (which documents every setting): a setting is
translated (:mod:`.fsf_translate`), written as an ``interpretation`` line where it only adjudicates
(:data:`NOT_MODELLED`), skipped where it is display only (:data:`DISPLAY_ONLY`), or refuses its section
(:data:`UNSUPPORTED`) unless it holds its default (:data:`DEFAULTS`).
"""

from __future__ import annotations

import re


PIECE_TYPES: dict[str, str] = {
    "pawn": "fmWfcF", "knight": "N", "bishop": "B", "rook": "R", "queen": "Q", "fers": "F", "alfil": "A",
    "fersAlfil": "FA", "silver": "FfW", "aiwok": "RNF", "bers": "RF", "archbishop": "BN", "chancellor": "RN",
    "amazon": "QN", "knibis": "mNcB", "biskni": "mBcN", "kniroo": "mNcR", "rookni": "mRcN", "shogiPawn": "fW",
    "lance": "fR", "shogiKnight": "fN", "gold": "WfF", "dragonHorse": "BW", "clobber": "cW",
    "breakthrough": "fmWfF", "immobile": "", "cannon": "mRcpR", "soldier": "fsW", "horse": "nN",
    "elephant": "nA", "janggiElephant": "nZ", "banner": "RcpRnN", "wazir": "W", "commoner": "K",
    "centaur": "KN", "king": "K",
}
"""Fairy-Stockfish's predefined piece types and their moves in Betza (its variants.ini header), the
pawn without its double step (added from the double-step settings). ``janggiCannon`` is in
:data:`OWN_KIND_HOPPERS` instead: its Betza alone would be a plain hopper."""

OWN_KIND_HOPPERS: dict[str, str] = {"janggiCannon": "pR"}
"""Fairy-Stockfish's predefined hoppers that may not hop over nor take a piece of their own kind (of
either side), with the Betza of their moves: imported as that Betza with ``hurdle not K, takes not K``,
``K`` the piece itself."""

CUSTOM_PIECE = re.compile(r"customPiece([1-9]|1[0-9]|2[0-5])$")

DISPLAY_ONLY = frozenset({"pieceToCharTable", "pocketSize", "variantTemplate", "pieceValueMg", "pieceValueEg"})
"""Settings for XBoard and for Fairy-Stockfish's evaluation: no rule of the game."""

NOT_MODELLED: dict[str, str] = {
    "moveRepetitionIllegal": "moving back and forth is not forbidden: the repetition rule applies",
    "chasingRule": "xiangqi's chasing rules are not modelled: the repetition rule applies",
    "countingRule": "the counting rules are not modelled (the game ends by the other rules only)",
    "materialCounting": "material counting adjudication is not modelled",
    "adjudicateFullBoard": "the full-board adjudication is not modelled",
}
"""Adjudication rules the language has no construct for; they decide no legal move, so the section is
imported with an interpretation line saying what is left out (the value ``none``/``false`` says nothing)."""

UNSUPPORTED: dict[str, str] = {
    "chess960": "shuffled arrays with chess960 castling are not imported",
    "twoBoards": "bughouse's second board has no counterpart",
    "sittuyinPromotion": "Sittuyin's promotion is not imported yet (the language says it with 'promotes ...: in place')",
    "sittuyinRookDrop": "Sittuyin's rook drops are not imported yet (a 'drop Rook: not in ZONE' line says them)",
    "pieceDemotion": "demoting a piece by a move has no counterpart",
    "dropPromoted": "dropping a piece in its promoted state has no counterpart",
    "dropOppositeColoredBishop": "a drop conditioned on the bishops' colours has no counterpart",
    "piecePromotionOnCapture": "promotion only by captures has no counterpart",
    "blastImmuneTypes": "pieces immune to explosions have no counterpart",
    "mutuallyImmuneTypes": "pieces that cannot capture their own kind have no counterpart",
    "petrifyOnCaptureTypes": "pieces that turn into walls have no counterpart",
    "petrifyBlastPieces": "pieces that turn into walls have no counterpart",
    "enPassantRegion": "a region for en passant has no counterpart",
    "enPassantRegionWhite": "a region for en passant has no counterpart",
    "enPassantRegionBlack": "a region for en passant has no counterpart",
    "castlingDroppedPiece": "castling with dropped pieces has no counterpart",
    "oppositeCastling": "castling conditioned on the opponent's castling has no counterpart",
    "castlingWins": "castling as a win condition has no counterpart",
    "dropChecks": "forbidding checks by drops has no counterpart",
    "mustDrop": "compulsory drops have no counterpart",
    "mustDropType": "compulsory drops have no counterpart",
    "enclosingDrop": "drops that must enclose pieces have no counterpart",
    "enclosingDropStart": "drops that must enclose pieces have no counterpart",
    "flipEnclosedPieces": "pieces changing sides when enclosed have no counterpart",
    "gating": "the gating rights of the castling field are not imported",
    "seirawanGating": "gating is not imported",
    "cambodianMoves": "Cambodian chess's special first moves have no counterpart",
    "wallingRule": "walls placed by moves have no counterpart",
    "wallingRegionWhite": "walls placed by moves have no counterpart",
    "wallingRegionBlack": "walls placed by moves have no counterpart",
    "wallOrMove": "walls placed by moves have no counterpart",
    "diagonalLines": "moves along marked diagonals only (janggi's palace) have no counterpart",
    "pass": "passing at will has no counterpart",
    "passWhite": "passing at will has no counterpart",
    "passBlack": "passing at will has no counterpart",
    "passOnStalemate": "passing when stalemated has no counterpart",
    "passOnStalemateWhite": "passing when stalemated has no counterpart",
    "passOnStalemateBlack": "passing when stalemated has no counterpart",
    "soldierPromotionRank": "a soldier that moves otherwise before a rank has no counterpart",
    "shatarMateRule": "shatar's mating rules have no counterpart",
    "bikjangRule": "janggi's bikjang rule has no counterpart",
    "stalematePieceCount": "counting material at stalemate has no counterpart",
    "nFoldValueAbsolute": "a repetition result for White rather than the side to move has no counterpart",
    "extinctionClaim": "claiming extinction has no counterpart",
    "extinctionOpponentPieceCount": "an extinction rule that also counts the opponent's pieces has no counterpart",
    "flagPieceBlockedWin": "several flag pieces have no counterpart",
    "flagMove": "the extra move after reaching the flag region has no counterpart",
    "flagPieceSafe": "a flag piece that must be safe has no counterpart",
    "connectN": "winning by connecting pieces has no counterpart",
    "connectNxN": "winning by connecting pieces has no counterpart",
    "collinearN": "winning by connecting pieces has no counterpart",
    "connectRegion1White": "winning by connecting regions has no counterpart",
    "connectRegion2White": "winning by connecting regions has no counterpart",
    "connectRegion1Black": "winning by connecting regions has no counterpart",
    "connectRegion2Black": "winning by connecting regions has no counterpart",
    "castlingRank": "castling on another rank than the first is not imported",
    "castlingKingFile": "a castling king file is not imported",
    "castlingRookKingsideFile": "castling rook files are not imported",
    "castlingRookQueensideFile": "castling rook files are not imported",
    "promotionLimit": "promotion limits are not imported",
    "dropLoop": "captured promoted pieces that keep their rank in hand are not imported",
    "mobilityRegion": "a mobility region without a colour and a piece has no meaning",
}
"""Settings that refuse a section (unless they hold their default, see :data:`DEFAULTS`)."""

DEFAULTS: dict[str, str] = {
    "maxRank": "8", "maxFile": "8", "chess960": "false", "twoBoards": "false",
    "startFen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "promotionRegionWhite": "*8", "promotionRegionBlack": "*1", "promotionPieceTypes": "",
    "sittuyinPromotion": "false", "promotionLimit": "", "promotedPieceType": "", "piecePromotionOnCapture": "false",
    "mandatoryPawnPromotion": "true", "mandatoryPiecePromotion": "false", "pieceDemotion": "false",
    "blastOnCapture": "false", "blastImmuneTypes": "-", "mutuallyImmuneTypes": "-", "petrifyOnCaptureTypes": "-",
    "petrifyBlastPieces": "false", "doubleStep": "true", "doubleStepRegionWhite": "*2",
    "doubleStepRegionBlack": "*7", "tripleStepRegionWhite": "-", "tripleStepRegionBlack": "-",
    "castling": "true", "castlingDroppedPiece": "false", "castlingKingsideFile": "g",
    "castlingQueensideFile": "c", "castlingRank": "1", "castlingKingFile": "e", "castlingKingPiece": "k",
    "castlingRookPieces": "r", "oppositeCastling": "false", "checking": "true", "dropChecks": "true",
    "mustCapture": "false", "mustDrop": "false", "mustDropType": "*", "pieceDrops": "false", "dropLoop": "false",
    "capturesToHand": "false", "firstRankPawnDrops": "false", "promotionZonePawnDrops": "false",
    "enclosingDrop": "none", "sittuyinRookDrop": "false", "dropOppositeColoredBishop": "false",
    "dropPromoted": "false", "dropNoDoubled": "-", "dropNoDoubledCount": "1", "immobilityIllegal": "false",
    "gating": "false", "wallingRule": "none", "wallOrMove": "false", "seirawanGating": "false",
    "cambodianMoves": "false", "pass": "false", "passWhite": "false", "passBlack": "false",
    "passOnStalemate": "false", "passOnStalemateWhite": "false", "passOnStalemateBlack": "false",
    "makpongRule": "false", "flyingGeneral": "false", "soldierPromotionRank": "1", "flipEnclosedPieces": "none",
    "nMoveRule": "50", "nFoldRule": "3", "nFoldValue": "draw", "nFoldValueAbsolute": "false",
    "perpetualCheckIllegal": "false", "moveRepetitionIllegal": "false", "chasingRule": "none",
    "stalemateValue": "draw", "stalematePieceCount": "false", "checkmateValue": "loss",
    "shogiPawnDropMateIllegal": "false", "shatarMateRule": "false", "bikjangRule": "false",
    "extinctionValue": "none", "extinctionClaim": "false", "extinctionPseudoRoyal": "false", "dupleCheck": "false",
    "extinctionPieceTypes": "", "extinctionPieceCount": "0", "extinctionOpponentPieceCount": "0",
    "flagPiece": "*", "flagRegion": "", "flagPieceCount": "1", "flagPieceBlockedWin": "false", "flagMove": "false",
    "flagPieceSafe": "false", "checkCounting": "false", "connectN": "0", "connectNxN": "0", "collinearN": "0",
    "connectValue": "win", "materialCounting": "none", "adjudicateFullBoard": "false", "countingRule": "none",
    "castlingWins": "-", "enPassantRegion": "", "enPassantRegionWhite": "", "enPassantRegionBlack": "",
    "connectPieceTypes": "*", "connectVertical": "true", "connectHorizontal": "true", "connectDiagonal": "true",
    "connectRegion1White": "-", "connectRegion2White": "-", "connectRegion1Black": "-", "connectRegion2Black": "-",
    "wallingRegionWhite": "", "wallingRegionBlack": "", "diagonalLines": "", "castlingRookKingsideFile": "",
    "castlingRookQueensideFile": "",
}
"""Fairy-Stockfish's default of each rule setting for a section without a parent, as written in the file:
its header's, except ``promotionPieceTypes``: the header says ``nbrq``, but Fairy-Stockfish (pyffish
0.0.90) gives a pawn of such a section no promotion unless the section lists the choices."""

EMPTY_VALUES = {"", "-", "none"}
RESULTS = {"win": "win", "loss": "loss", "draw": "draw"}
OPPOSITE = {"win": "loss", "loss": "win", "draw": "draw"}
FEN_CHARS = re.compile(r"[A-Za-z0-9/\[\]+~* -]*$")


def fen_fields(fen: str) -> dict[str, str | None]:
    """The fields of a Fairy-Stockfish FEN, which may leave out castling, en passant and the counters
    (``8/8/... w 0 1``): ``placement`` (holdings included), ``side``, ``castling``, ``ep``, ``checks``
    (``3+3`` or None), ``halfmove``, ``fullmove``; a ValueError for characters no FEN uses."""
    if not FEN_CHARS.match(fen) or len(fen) > 2_000 or not fen.split():
        raise ValueError("not a position string of Fairy-Stockfish")
    fields = fen.split()
    placement, rest = fields[0], fields[1:]
    side = rest.pop(0) if rest and rest[0] in ("w", "b") else "w"
    castling = rest.pop(0) if rest and not rest[0].isdigit() and "+" not in rest[0] else "-"
    ep = rest.pop(0) if rest and not rest[0].isdigit() and "+" not in rest[0] else "-"
    checks = rest.pop(0) if rest and "+" in rest[0] else None
    counters = [r for r in rest if r.isdigit()][:2]
    counters += ["0", "1"][len(counters):]
    return {"placement": placement, "side": side, "castling": castling, "ep": ep, "checks": checks,
            "halfmove": counters[0], "fullmove": counters[1]}


def castling_field(fen: str) -> str:
    try:
        return str(fen_fields(fen)["castling"])
    except ValueError:
        return "-"


def our_fen(fields: dict[str, str | None], castling: bool, counting: bool) -> str:
    """A FEN of :func:`fen_fields` in our dialect: every field written; castling rights only for a game
    with castling (Fairy-Stockfish ignores them otherwise), the check counts only where they are counted."""
    parts = [fields["placement"], fields["side"], fields["castling"] if castling else "-", fields["ep"]]
    if counting and fields["checks"]:
        parts.append(fields["checks"])
    return " ".join(str(p) for p in parts + [fields["halfmove"], fields["fullmove"]])


def plain_text(text: str, most: int = 60) -> str:
    """Untrusted text (a file name, a setting's value) made safe inside a rules string: at most ``most``
    characters, anything but letters, digits, blanks and ``_ . , : ; + * - = ( ) ' /`` as ``?``."""
    return re.sub(r"[^A-Za-z0-9 _.,:;+*=()'/-]", "?", text[:most])
