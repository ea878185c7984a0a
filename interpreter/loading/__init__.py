"""Load a game and make its positions: the layer that knows the compiler, the engine and FEN."""

from .games import compile_variant, load_game, mode_options, rules_digest
from .positions import position_from_fen, start_fen, start_position, starting_arrays

__all__ = ["compile_variant", "load_game", "mode_options", "rules_digest", "position_from_fen", "start_fen", "start_position", "starting_arrays"]
