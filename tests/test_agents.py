"""The computer players (interpreter.agents): legal moves everywhere, forced wins found, the interface kept.

- Every agent returns a legal move in every bundled variant and play mode (at the start and
  after random plies), in positions with one legal move, and in forced positions (a pass, the
  removal of a mated king); it leaves the position as it found it.
- Agents play each other in every variant (contract-style playouts) without an illegal move.
- Alpha-beta finds forced wins in 1 and 2 moves, each proved by the brute-force search
  :func:`winning_moves` (every line, no pruning, the game's own outcome): mates in chess, xiangqi,
  shogi, crazyhouse, Locking Chess's royal lock-mate and lock-mate, Superchess team mates (4p and
  2p), and Rocket Chess's king run to the cockpit.
- Budgets, stop flags, info callbacks and determinism behave as documented.
"""

from __future__ import annotations

import random
import threading

import pytest

from dsl import UsageError, bundled_names, load_spec
from dsl import spec as S
from dsl.errors import RulesError
from dsl.files import FilePolicy
from interpreter.agents import MATE, Budget, make_agent, parse_agent, time_for_move
from interpreter.agents.alphabeta import AlphaBeta
from interpreter.agents.maxn import MaxN
from interpreter.agents.mcts import MCTS
from interpreter.agents.sides import Sides
from interpreter.agents.simple import GreedyAgent, RandomAgent
from interpreter.compiler.end_rules import counts_moves, needs_no_moves
from interpreter.engine.outcome import outcome
from interpreter.engine.position import Position
from interpreter.loading import load_game, position_from_fen, start_position
from interpreter.notation.fen import to_fen

VARIANTS = [(name, mode) for name in bundled_names() for mode in ([m.name for m in load_spec(name).modes] or [None])]
VARIANT_IDS = [n if m is None else f"{n}-{m}" for n, m in VARIANTS]
# Small budgets: these tests are about legality and the interface, not strength.
QUICK_AGENTS = {
    "random": (lambda: RandomAgent(1), Budget()),
    "greedy": (lambda: GreedyAgent(1), Budget()),
    "alphabeta": (lambda: AlphaBeta(1), Budget(nodes=150)),
    "mcts": (lambda: MCTS(1), Budget(nodes=12)),
    "maxn": (lambda: MaxN(1), Budget(nodes=60)),
}


def state(pos) -> tuple:
    """What a search must leave as it was."""
    return (to_fen(pos), pos.hash, tuple(pos.history), len(pos._undo))


def position(game, pieces: dict[str, str], side: str) -> Position:
    """A position with ``pieces`` (cell name -> FEN symbol), ``side`` (FEN's side field) to move,
    no castling rights."""
    pos = Position(game)
    for cell, symbol in pieces.items():
        pos.place(game.board.index[cell], game.symbol_code[symbol])
    pos.rehash()
    fields = to_fen(pos).split()
    fields[1], fields[2] = side, "-"
    return position_from_fen(game, " ".join(fields))


def random_position(game, plies: int, seed: int):
    """The position after up to ``plies`` random moves (fewer if the game ends)."""
    rng = random.Random(seed)
    pos = start_position(game)
    for _ in range(plies):
        legal = pos.legal_moves()
        if not legal or outcome(pos, legal) is not None:
            break
        pos.push(rng.choice(legal))
    return pos


def check_choice(agent, budget, pos) -> None:
    before = state(pos)
    legal = pos.legal_moves()
    info = agent.choose(pos, budget)
    assert state(pos) == before, f"{agent} changed the position"
    assert info.move in legal, f"{agent} chose {info.move}, not a legal move of {to_fen(pos)}"
    assert info.pv and info.pv[0] == info.move


# ---------------------------------------------------------------- legal moves everywhere


@pytest.mark.parametrize("name,mode", VARIANTS, ids=VARIANT_IDS)
def test_every_agent_returns_a_legal_move(name, mode):
    game = load_game(name, mode)
    positions = [start_position(game), random_position(game, 12, seed=7)]
    for make, budget in QUICK_AGENTS.values():
        agent = make()
        for pos in positions:
            if pos.legal_moves() and outcome(pos) is None:
                check_choice(agent, budget, pos)


def _one_move_positions():
    chess = load_game("chess")
    superchess = load_game("superchess", "4p")
    return [
        # Check by a rook with one escape square.
        pytest.param(chess, position_from_fen(chess, "7k/8/8/8/8/8/6PP/r5K1 w - - 0 1"), None, id="chess-only-move"),
        # Brown's lone king is walled in without check: its army passes.
        pytest.param(superchess, position(superchess, {"d1": "rK", "e8": "wR", "h2": "wR", "c12": "wK", "l12": "bK",
                                                       "l3": "tK"}, "r"), "pass", id="superchess-pass"),
        # Black's king on n11 is mated: removing it is Black's move.
        pytest.param(superchess, position(superchess, {"n11": "bK", "l11": "wQ", "a10": "wR", "a7": "bN",
                                                       "c12": "wK", "l3": "tK", "c3": "rK"}, "b"), "remove",
                     id="superchess-removal"),
    ]


@pytest.mark.parametrize("game,pos,tag", _one_move_positions())
def test_agents_play_the_only_move_and_forced_moves(game, pos, tag):
    legal = pos.legal_moves()
    assert len(legal) == 1 and (tag is None or legal[0][3][0] == tag)
    for make, budget in QUICK_AGENTS.values():
        agent = make()
        info = agent.choose(pos, budget)
        assert info.move == legal[0]


@pytest.mark.parametrize("name,mode", VARIANTS, ids=VARIANT_IDS)
def test_agents_survive_playouts(name, mode):
    """Agents of every kind take turns for a few dozen plies: every move legal, the position
    untouched by the search, the game's outcome respected."""
    game = load_game(name, mode)
    pos = start_position(game)
    kinds = list(QUICK_AGENTS.values())
    agents = [(make(), budget) for make, budget in kinds]
    for ply in range(24):
        legal = pos.legal_moves()
        if outcome(pos, legal) is not None:
            break
        agent, budget = agents[ply % len(agents)]
        before = state(pos)
        info = agent.choose(pos, Budget(nodes=40) if isinstance(agent, AlphaBeta) else budget)
        assert state(pos) == before
        assert info.move in legal, f"{name} ply {ply}: {agent} chose an illegal move in {to_fen(pos)}"
        pos.push(info.move)


def test_no_move_when_the_game_is_over():
    game = load_game("chess")
    pos = position_from_fen(game, "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1")  # Black is mated
    for make, budget in QUICK_AGENTS.values():
        assert make().choose(pos, budget).move is None


# ---------------------------------------------------------------- forced wins, proved by brute force


def forced_win(pos, sides: Sides, team: int, plies: int) -> bool:
    """Does ``team`` win within ``plies`` plies whatever the others do? Every line is played out to
    the game's own outcome (a partner's move is the team's choice, an enemy's is not)."""
    legal = pos.legal_moves()
    result = outcome(pos, legal)
    if result is not None:
        return team in sides.winner_teams(result.winners)
    if plies == 0:
        return False
    ours = sides.turn_team[pos.turn] == team
    for move in legal:
        pos.push(move)
        won = forced_win(pos, sides, team, plies - 1)
        pos.pop()
        if won == ours:
            return ours
    return not ours


def winning_moves(pos, plies: int) -> list:
    """The moves after which the side to move's team wins within ``plies`` plies (this move included)."""
    sides = Sides(pos.game)
    team = sides.turn_team[pos.turn]
    found = []
    for move in pos.legal_moves():
        pos.push(move)
        if forced_win(pos, sides, team, plies - 1):
            found.append(move)
        pos.pop()
    return found


def _superchess(mode, pieces, side):
    game = load_game("superchess", mode)
    return game, position(game, pieces, side)


def _fen(name, fen, mode=None):
    game = load_game(name, mode)
    return game, position_from_fen(game, fen)


def _rocket(pieces):
    game = load_game("rocket")
    return game, position(game, pieces, "w")


# (case, plies to the end, the end rule that must follow the win)
FORCED_WINS = [
    pytest.param(lambda: _fen("chess", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"), 1, "checkmate", id="chess-mate-in-1"),
    pytest.param(lambda: _fen("chess", "7k/8/8/6K1/8/8/8/R7 w - - 0 1"), 3, "checkmate", id="chess-mate-in-2"),
    pytest.param(lambda: _fen("xiangqi", "4k4/1R7/9/9/9/9/9/9/9/R2K5 w - - 0 1"), 1, None, id="xiangqi-mate-in-1"),
    pytest.param(lambda: _fen("xiangqi", "4k4/9/9/9/9/9/9/9/1R7/R2K5 w - - 0 1"), 3, None, id="xiangqi-mate-in-2"),
    pytest.param(lambda: _fen("shogi", "4k4/9/4P4/9/9/9/9/9/4K4[G] w - - 0 1"), 1, None, id="shogi-drop-mate-in-1"),
    pytest.param(lambda: _fen("shogi", "4k4/9/9/9/9/9/9/9/4K4[GG] w - - 0 1"), 3, None, id="shogi-drop-mate-in-2"),
    pytest.param(lambda: _fen("crazyhouse", "6rk/6pp/8/8/8/8/8/6K1[N] w - - 0 1"), 1, "checkmate",
                 id="crazyhouse-smothered-drop-mate-in-1"),
    pytest.param(lambda: _fen("crazyhouse", "7k/8/8/6K1/8/8/8/8[R] w - - 0 1"), 3, "checkmate",
                 id="crazyhouse-drop-mate-in-2"),
    # The black king is locked under a white bishop; the white king steps next to it and checks it.
    pytest.param(lambda: _fen("locking", "8/8/8/8/8/7P/3(kB)4/5K2 w - - 0 1"), 1, "royal_lock_mate",
                 id="locking-royal-lock-mate"),
    # The black king is locked under its own knight; a bishop's check cannot be met.
    pytest.param(lambda: _fen("locking", "8/6(kn)1/8/8/8/8/8/2B1K3 w - - 0 1"), 1, "lock_mate",
                 id="locking-lock-mate"),
    # Brown's king is gone; White's queen mates Black's king on rank 11 while Tan's rook holds rank
    # 10: Black removes its king and the light team wins (2 plies).
    pytest.param(lambda: _superchess("4p", {"n11": "bK", "i14": "wQ", "a10": "tR", "a7": "bN", "c12": "wK",
                                            "l3": "tK"}, "w"), 2, "both_kings_lost", id="superchess-4p-team-mate"),
    pytest.param(lambda: _superchess("2p", {"n11": "bK", "i14": "wQ", "a10": "tR", "a7": "bN", "c12": "wK",
                                            "l3": "tK"}, "w"), 2, "both_kings_lost", id="superchess-2p-team-mate"),
    # Light first brings Tan's rook to rank 10, then mates with White's queen (4 plies).
    pytest.param(lambda: _superchess("2p", {"n11": "bK", "i13": "wQ", "a9": "tR", "a7": "bN", "c12": "wK",
                                            "l3": "tK"}, "w"), 4, "both_kings_lost",
                 id="superchess-2p-team-mate-in-2"),
    pytest.param(lambda: _rocket({"a30": "K", "a1": "k", "n1": "P"}), 1, "cockpit", id="rocket-cockpit-in-1"),
    # Two king steps, a29-a30-a31; a black bishop can neither stop nor catch it.
    pytest.param(lambda: _rocket({"a29": "K", "a1": "k", "n1": "P", "c20": "b"}), 3, "cockpit",
                 id="rocket-king-run"),
]


@pytest.mark.parametrize("case,plies,rule", FORCED_WINS)
def test_alphabeta_finds_forced_wins(case, plies, rule):
    game, pos = case()
    winners = winning_moves(pos, plies)
    assert winners, "the constructed position has no forced win in the stated number of plies"
    assert len(winners) < len(pos.legal_moves()), "every move wins: the test would prove nothing"
    if plies > 2:
        assert not winning_moves(pos, plies - 2), "a shorter win exists"
    info = AlphaBeta().choose(pos, Budget(depth=plies + 1))
    assert info.move in winners
    assert info.mate == plies and info.score == MATE - plies
    # Play the line out: the end comes by the game's own rule, won by the side that started.
    team = Sides(game).turn_team[pos.turn]
    for _ in range(plies):
        pos.push(AlphaBeta().choose(pos, Budget(depth=plies + 1)).move)
    result = outcome(pos)
    assert result is not None and team in Sides(game).winner_teams(result.winners)
    assert rule is None or result.rule == rule


def test_alphabeta_blocks_with_the_neutral_piece():
    """Duck chess: the rook on a1 takes the king on h1 next unless the duck stands between (the king
    cannot leave rank 1): 261 of the 290 moves lose. The search tries each move with its ways of
    moving the duck only as it reaches them, and finds a block."""
    game, pos = _fen("duck", "7k/8/8/3*4/8/8/6PP/r6K w - - 0 1")
    sides = Sides(game)
    black = 1 - sides.turn_team[pos.turn]
    legal = pos.legal_moves()
    losing = 0
    for move in legal:
        pos.push(move)
        losing += forced_win(pos, sides, black, 1)
        pos.pop()
    assert (len(legal), losing) == (290, 261)
    for depth in (2, 3):
        move = AlphaBeta().choose(pos, Budget(depth=depth)).move
        pos.push(move)
        assert not forced_win(pos, sides, black, 1), (depth, move)
        pos.pop()


MAXN_WINS = ["chess-mate-in-1", "chess-mate-in-2", "locking-lock-mate", "superchess-4p-team-mate",
             "rocket-cockpit-in-1", "rocket-king-run"]


@pytest.mark.parametrize("case,plies,rule", [p for p in FORCED_WINS if p.id in MAXN_WINS])
def test_maxn_finds_forced_wins(case, plies, rule):
    """Max-n, where each team maximises its own score, finds the same forced wins (two teams: it is
    negamax without pruning)."""
    game, pos = case()
    info = MaxN().choose(pos, Budget(depth=plies))
    assert info.move in winning_moves(pos, plies)
    assert info.mate == plies and info.score == MATE - plies


def test_maxn_in_free_for_all_takes_for_itself():
    """In four-player chess (every army a team) Red takes Yellow's undefended queen with its rook."""
    game = load_game("fourplayer_ffa")
    pos = position(game, {"h1": "rK", "a7": "bK", "g14": "yK", "n8": "gK", "e5": "rR", "e10": "yQ"}, "r")
    info = MaxN(1).choose(pos, Budget(depth=2))
    assert [game.board.names[c] for c in info.move[:2]] == ["e5", "e10"]
    assert info.depth == 2 and info.score > 500


def test_maxn_cut_short_in_its_first_iteration_plays_the_best_move_searched():
    """Out of nodes before every move of the first iteration is searched: of the moves searched,
    the one that takes the queen, not the first move generated."""
    game = load_game("chess")
    pos = position_from_fen(game, "4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1")
    info = MaxN().choose(pos, Budget(nodes=4))
    assert info.depth == 0 and info.nodes == 4
    assert [game.board.names[c] for c in info.move[:2]] == ["d1", "d5"]


def test_greedy_takes_a_mate_and_the_biggest_capture():
    game = load_game("chess")
    pos = position_from_fen(game, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    assert GreedyAgent(3).choose(pos).move == winning_moves(pos, 1)[0]
    pos = position_from_fen(game, "4k3/8/8/3q4/8/1n6/8/3RK3 w - - 0 1")
    move = GreedyAgent(3).choose(pos).move
    assert game.board.names[move[1]] == "d5"


# ---------------------------------------------------------------- the interface


def test_node_and_depth_budgets_are_deterministic():
    game = load_game("chess")
    pos = random_position(game, 10, seed=3)
    for agent_type, budget in ((AlphaBeta, Budget(nodes=2000)), (AlphaBeta, Budget(depth=3)), (MCTS, Budget(nodes=200)),
                               (MaxN, Budget(nodes=500))):
        first, second = agent_type(5).choose(pos, budget), agent_type(5).choose(pos, budget)
        assert (first.move, first.score, first.pv, first.nodes) == (second.move, second.score, second.pv, second.nodes)
    assert AlphaBeta().choose(pos, Budget(nodes=2000)).nodes <= 2000
    assert AlphaBeta().choose(pos, Budget(depth=2)).depth == 2


def test_info_callback_reports_each_depth():
    game = load_game("chess")
    seen = []
    final = AlphaBeta().choose(start_position(game), Budget(depth=4), on_info=seen.append)
    assert [i.depth for i in seen] == [1, 2, 3, 4]
    assert all(i.pv and i.nodes > 0 and i.seldepth >= i.depth for i in seen)
    assert final.move == seen[-1].move and final.nodes >= seen[-1].nodes


def test_a_set_stop_flag_ends_the_search_with_a_move():
    game = load_game("chess")
    stop = threading.Event()
    stop.set()
    pos = start_position(game)
    for agent in (AlphaBeta(), MCTS(), MaxN()):
        info = agent.choose(pos, Budget(time=60), stop=stop)
        assert info.move in pos.legal_moves() and info.time < 5


def test_stop_from_another_thread():
    game = load_game("chess")
    stop = threading.Event()
    timer = threading.Timer(0.3, stop.set)
    timer.start()
    info = AlphaBeta().choose(start_position(game), Budget(time=60), stop=stop)
    timer.join()
    assert info.move in start_position(game).legal_moves() and info.time < 10


def test_agent_specs():
    assert parse_agent("random").kind == "random"
    spec = parse_agent("ai:alphabeta:time=2")
    assert spec.kind == "alphabeta" and spec.budget == Budget(time=2.0)
    spec = parse_agent("ai:mcts:nodes=20000")
    assert spec.kind == "mcts" and spec.budget == Budget(nodes=20000)
    assert parse_agent("ai").kind == "alphabeta" and parse_agent("ai").budget.time
    assert parse_agent("ai", level="hard").budget.time > parse_agent("ai", level="easy").budget.time
    assert parse_agent("ai:level=easy,depth=3").budget.depth == 3
    assert parse_agent("alphabeta:depth=2:seed=4").seed == 4
    agent, budget = make_agent("ai:depth=2", seed=9)
    assert isinstance(agent, AlphaBeta) and agent.seed == 9 and budget.depth == 2
    for bad in ("", "ai:foo", "alphabet", "ai:time=x", "ai:tme=2", "ai:time=0", "ai:depth",
                "ai:time=nan", "ai:time=inf", "ai:time=1e999", "ai:nodes=" + "9" * 5000):  # nan passes any bound
        with pytest.raises(UsageError):
            parse_agent(bad)


def test_weights_of_a_rules_file(tmp_path):
    """weights=FILE gives a search the ai block of a rules file (what it extends resolved, 1 where it
    gives none); it is read only where the caller allows files, and only for a search."""
    path = tmp_path / "mine.rules"
    path.write_text("extends chess\nai {\n  weight safety 0\n  weight mobility 0.5\n}\n")
    allowed = FilePolicy()
    for text in (f"ai:nodes=100:weights={path}", f"ai:mcts:nodes=100:weights={path}", f"ai:level=1200:weights={path}"):
        spec = parse_agent(text, files=allowed)
        weights = dict(spec.weights)
        assert set(weights) == set(S.AI_WEIGHTS) and weights["safety"] == 0 and weights["mobility"] == 0.5
        assert weights["pair"] == 1.362                  # chess's own, inherited through extends
        assert spec.make().weights == weights and spec.label == text
    assert parse_agent("ai:weights=kingofthehill", files=allowed).make().weights["zone"] == 1.439   # a bundled name
    assert parse_agent("ai:nodes=100").make().weights is None
    with pytest.raises(UsageError, match="this agent may not read a file"):
        parse_agent(f"ai:weights={path}")               # a request's agent (a server, an engine protocol)
    with pytest.raises(UsageError, match="greedy has no evaluation to weigh"):
        parse_agent(f"greedy:weights={path}", files=allowed)
    with pytest.raises(RulesError, match="agent option weights=: no rules file"):
        parse_agent(f"ai:weights={tmp_path / 'none.rules'}", files=allowed)
    path.write_text("extends chess\nai {\n  weight bogus 2\n}\n")
    with pytest.raises(RulesError) as found:
        parse_agent(f"ai:weights={path}", files=allowed)
    assert found.value.loc is not None and found.value.loc.line == 3      # located in the file


def test_time_for_move():
    # The move deserves its share (soft) and may take three shares (time) when its search is unstable.
    assert time_for_move(60.0, 1.0).soft == pytest.approx(60 / 30 + 0.8)
    assert time_for_move(60.0, 1.0).time == pytest.approx(3 * (60 / 30 + 0.8))
    assert time_for_move(10.0, 0.0, moves_to_go=4).soft == pytest.approx(2.0)
    assert time_for_move(10.0, 0.0, moves_to_go=4).time == pytest.approx(5.0 - 0.05)   # never more than half
    assert time_for_move(1.0, 5.0).time <= 0.5    # never more than half of what is left
    assert 0 < time_for_move(0.0).soft <= time_for_move(0.0).time


# ---------------------------------------------------------------- the search's parts
def _searcher(name):
    game = load_game(name)
    return game, AlphaBeta()._prepare(game)


@pytest.mark.parametrize("name, allowed", [
    ("chess", True), ("shogi", True), ("xiangqi", True), ("crazyhouse", True),
    ("antichess", False),        # captures are compulsory
    ("extinction", False),       # losing a kind of piece loses: a pass may be the only safe move
    ("duck", False),             # a neutral piece moves every turn
    ("fourplayer_ffa", False),   # four sides: no two that alternate
    ("kinglet", False),          # no royal piece at the start
])
def test_null_move_pruning_where_the_rules_make_a_pass_no_better_than_a_move(name, allowed):
    _, searcher = _searcher(name)
    assert searcher.null_ok is allowed


@pytest.mark.parametrize("text, counts, none", [
    ("legal_moves == 0", False, True), ("0 == legal_moves", False, True), ("legal_moves < 1", False, True),
    ("1 > legal_moves", False, True),
    ("legal_moves > 0", False, False), ("legal_moves != 0", False, False), ("1 <= legal_moves", False, False),
    ("legal_moves >= 1", False, False),
    ("legal_moves == 1", True, False), ("legal_moves <= 1", True, False), ("legal_moves > 1", True, False),
    ("2 <= legal_moves", True, False),
])
def test_which_tests_of_legal_moves_ask_only_whether_a_move_exists(text, counts, none):
    """A search that tries moves one at a time knows only that one exists: an end rule's test that
    answers the same for every number of moves from one up needs no more (Janggi's move limit reads
    ``legal_moves > 0``); one false whenever a move exists is skipped once a move was found."""
    left, op, right = text.split()
    side = {"legal_moves": S.Ref(path=["legal_moves"])}
    condition = S.Compare(op=op, left=side.get(left) or S.Num(value=int(left)),
                          right=side.get(right) or S.Num(value=int(right)))
    assert (counts_moves(condition), needs_no_moves(condition)) == (counts, none)


def test_janggi_is_searched_one_move_at_a_time():
    _, searcher = _searcher("janggi")
    assert searcher.lazy


@pytest.mark.parametrize("fen, move, gain", [
    # an undefended pawn taken by a rook: the pawn
    ("4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1", ("d1", "d5"), lambda v: v["P"]),
    # a pawn defended by a pawn, taken by the queen: a pawn won, the queen lost
    ("4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1", ("d1", "d5"), lambda v: v["P"] - v["Q"]),
    # the same, taken by a rook with the queen behind it (an x-ray): the pawn taken back by the queen
    ("4k3/8/4p3/3p4/8/8/3R4/3QK3 w - - 0 1", ("d2", "d5"), lambda v: 2 * v["P"] - v["R"]),
    # a knight defended by a pawn, taken by a pawn: the knight won, the pawn lost
    ("4k3/8/2p5/3n4/4P3/8/8/4K3 w - - 0 1", ("e4", "d5"), lambda v: v["N"] - v["P"]),
    # a pawn defended by its king alone: the king takes the rook back ...
    ("8/8/8/4k3/4p3/8/8/4RK2 w - - 0 1", ("e1", "e4"), lambda v: v["P"] - v["R"]),
    # ... unless a knight guards the cell: a king is not given for a rook
    ("8/8/8/4k3/4p3/2N5/8/4RK2 w - - 0 1", ("e1", "e4"), lambda v: v["P"]),
])
def test_static_exchange_evaluation_reads_the_attack_tables(fen, move, gain):
    game, searcher = _searcher("chess")
    pos = position_from_fen(game, fen)
    names = game.board.names
    found = [m for m in pos.legal_moves() if (names[m[0]], names[m[1]]) == move]
    assert found, f"no move {move} in {fen}"
    value = {k.letter: searcher.values[game.code(k.index, 0)] for k in game.kinds}
    assert searcher.exchange(pos, found[0]) == gain(value)
    assert to_fen(pos) == fen   # the board is as it was


def test_a_budget_s_soft_time_lies_within_its_time():
    assert Budget(time=2.0, soft=0.5).soft == 0.5
    for bad in (dict(soft=1.0), dict(time=1.0, soft=2.0), dict(time=1.0, soft=0)):
        with pytest.raises(ValueError):
            Budget(**bad)


def test_levels_in_elo():
    from interpreter.agents.strength import ELO_LEVELS, MAX_ELO, MIN_ELO, elo_limits
    from interpreter.protocols.uci import ELO_RANGE
    assert ELO_RANGE == (MIN_ELO, MAX_ELO)
    for elo, nodes, noise in ELO_LEVELS:
        assert elo_limits(elo) == (nodes, noise)
    limits = [elo_limits(elo) for elo in range(MIN_ELO, MAX_ELO + 1, 50)]
    assert all(a[0] <= b[0] and a[1] >= b[1] for a, b in zip(limits, limits[1:]))   # stronger: more nodes, less noise
    spec = parse_agent("ai:level=1200")
    agent = spec.make()
    assert spec.budget.nodes == agent.node_cap == elo_limits(1200)[0] and agent.noise == elo_limits(1200)[1]
    # the cap holds whatever the budget: a clock's time does not make a weak level strong
    game = load_game("chess")
    assert agent.choose(start_position(game), Budget(time=30.0)).nodes <= agent.node_cap
    for bad in ("ai:level=799", "ai:level=2001", "ai:mcts:level=1200", "random:level=1500", "ai:level=1²00",
                "ai:level=" + "9" * 5000, "ai:level=-1200"):
        with pytest.raises(UsageError):
            parse_agent(bad)


def test_history_credit_stays_bounded_and_a_malus_undoes_a_bonus():
    """A quiet move's history moves by its bonus less the bonus's share of the score there: it
    never exceeds HISTORY_MAX in size however often it is credited, and the quiet moves
    searched before a cut-off lose what the move that cut gains."""
    from interpreter.agents.search import HISTORY_MAX
    game, searcher = _searcher("chess")
    pos = start_position(game)
    names = game.board.names
    e4, d4 = (next(m for m in pos.legal_moves() if (names[m[0]], names[m[1]]) == pair)
              for pair in (("e2", "e4"), ("d2", "d4")))
    code = pos.board[e4[0]]
    index = code * game.n + e4[1]
    for _ in range(1000):
        searcher.credit(pos.board, e4, HISTORY_MAX // 4)
    assert HISTORY_MAX // 2 < searcher.history[index] <= HISTORY_MAX
    for _ in range(1000):
        searcher.credit(pos.board, e4, -HISTORY_MAX // 4)
    assert -HISTORY_MAX <= searcher.history[index] < -HISTORY_MAX // 2
    searcher.history[index] = 0
    searcher.quiets_tried[0][:] = [e4]
    searcher.remember(pos, d4, 3, 0)
    gained = searcher.history[pos.board[d4[0]] * game.n + d4[1]]
    assert gained > 0 and searcher.history[index] == -gained
    assert searcher.killers[0] == d4
