"""mmtree from Python, checked against the command line's answers (mmlookup and
mmgen of the same checkout, built by `make test` before these run)."""

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import mmtree

ROOT = Path(__file__).resolve().parents[3]
TREES = ROOT / "trees"
BIN = Path(os.environ.get("MMTREE_BIN", ROOT / "target" / "debug"))


def cli(program, *args):
    out = subprocess.run([str(BIN / program), *args], capture_output=True, text=True, check=True)
    return out.stdout


def cli_refuses(program, *args):
    """Whether the command is refused as a usage error (exit 2)."""
    return subprocess.run([str(BIN / program), *args], capture_output=True).returncode == 2


def mmlookup_next(tree, moves):
    texts = [f"{g}:{b},{w}" for g, (b, w) in moves]
    return json.loads(cli("mmlookup", "next", "--tree", str(tree), "--json", *texts))


def test_a_tree_opens_verified_and_reports_what_the_cli_reports():
    tree = mmtree.Tree(TREES / "optimal-4x6.mmt")
    info = json.loads(cli("mmlookup", "info", "--json", str(TREES / "optimal-4x6.mmt")))
    stats = tree.stats
    assert stats["total"] == info["total_guesses"] == 5625
    assert stats["worst"] == info["max_guesses"]
    assert stats["histogram"] == info["histogram"]
    assert stats["proven"] is True
    assert tree.strategy == "optimal"
    assert (tree.board.pegs, tree.board.colors, tree.board.repeat) == (4, 6, True)
    assert len(tree.board) == 1296
    assert tree.audit() == stats


@pytest.mark.parametrize("name", ["knuth-4x6", "optimal-4x6", "optimal-4x10-no-repeat"])
def test_every_first_two_moves_get_the_cli_s_next_guess(name):
    tree = mmtree.Tree(TREES / f"{name}.mmt")
    first = tree.next()
    board = tree.board
    seen = 0
    for secret in board.codes()[:: max(1, len(board) // 60)]:
        answer = board.score(first, secret)
        moves = [(first, answer)]
        expected = mmlookup_next(TREES / f"{name}.mmt", moves)
        assert tree.next(moves) == expected["guess"]
        assert len(tree.candidates(moves)) == expected["candidates"] or expected["solved"]
        seen += 1
    assert seen > 20


def test_a_move_off_the_tree_s_line_is_answered_live_as_the_cli_does():
    tree = mmtree.Tree(TREES / "knuth-4x6.mmt")
    moves = [("1234", (0, 2)), ("5566", (1, 0))]
    assert tree.next(moves) == mmlookup_next(TREES / "knuth-4x6.mmt", moves)["guess"]


@pytest.mark.parametrize(
    "name, moves",
    [
        ("knuth-4x6", []),
        ("knuth-4x6", [("1122", (1, 0)), ("1344", (0, 1))]),
        ("optimal-4x6", [("1123", (1, 0))]),
        ("knuth-4x6", [("1234", (0, 2)), ("5566", (1, 0))]),
    ],
)
def test_a_move_is_explained_as_the_cli_explains_it(name, moves):
    tree = mmtree.Tree(TREES / f"{name}.mmt")
    texts = [f"{g}:{b},{w}" for g, (b, w) in moves]
    said = json.loads(cli("mmlookup", "explain", "--json", "--tree", str(TREES / f"{name}.mmt"), *texts))
    why = tree.explain(moves)
    assert why == said
    assert why["tree"]["guess"] == tree.next(moves)


def test_a_won_or_contradictory_game_has_no_explanation():
    tree = mmtree.Tree(TREES / "knuth-4x6.mmt")
    with pytest.raises(mmtree.MoveError, match="already"):
        tree.explain([("1122", (4, 0))])
    with pytest.raises(mmtree.ContradictionError):
        tree.explain([("1122", (1, 0)), ("1122", (0, 0))])


def test_playing_a_secret_matches_the_cli_s_game():
    tree = mmtree.Tree(TREES / "knuth-4x6.mmt")
    game = tree.play("3632")
    assert game[-1] == ("3632", (4, 0))
    shown = cli("mmlookup", "solve", "--tree", str(TREES / "knuth-4x6.mmt"), "3632")
    for guess, (b, w) in game:
        assert f"{guess}" in shown
    assert len(game) <= tree.stats["worst"]


def test_answers_are_typed_errors():
    tree = mmtree.Tree(TREES / "knuth-4x6.mmt")
    with pytest.raises(mmtree.MoveError, match="not a colour"):
        tree.next([("1129", (1, 0))])
    with pytest.raises(mmtree.MoveError):
        tree.next([("1122", (5, 0))])
    with pytest.raises(mmtree.MoveError, match="after the game was already won"):
        tree.next([("1122", (4, 0)), ("3456", (0, 0))])
    # No secret gives both answers: a contradiction, not a bad move.
    with pytest.raises(mmtree.ContradictionError) as raised:
        tree.next([("1122", (0, 0)), ("3344", (0, 0)), ("5566", (0, 0))])
    assert isinstance(raised.value, mmtree.Error)
    # It names the slip that explains it, as the command line does.
    said = str(raised.value)
    assert "one answer scored otherwise makes the game possible again: move " in said
    expected = subprocess.run(
        [str(BIN / "mmlookup"), "next", "1122:0,0", "3344:0,0", "5566:0,0"], capture_output=True, text=True
    )
    assert expected.stderr.strip() == f"mmlookup: error: {said}"
    # The same corrections, as data: the first is the one the message names first.
    changes, secrets = raised.value.corrections[0]
    (index, (black, white)), = changes
    assert f"move {index + 1} (" in said and f"as {black},{white} not " in said
    board = tree.board
    moves = [("1122", (0, 0)), ("3344", (0, 0)), ("5566", (0, 0))]
    fixed = [m if i != index else (m[0], (black, white)) for i, m in enumerate(moves)]
    assert secrets == [s for s in board.codes() if all(board.score(g, s) == a for g, a in fixed)]
    assert raised.value.readings == []
    # Answers written whites first: the game read back, as the message says.
    written = [("1122", (2, 1)), ("1223", (0, 2)), ("4115", (1, 1))]
    with pytest.raises(mmtree.ContradictionError) as raised:
        tree.next(written)
    (name, read, left), = raised.value.readings
    assert name == "whites first" and read == [(g, (w, b)) for g, (b, w) in written]
    assert left == len([s for s in board.codes() if all(board.score(g, s) == a for g, a in read)])
    assert "(2 secrets left)" in str(raised.value) and left == 2
    # An answer no board gives, read as blacks then every colour right.
    with pytest.raises(mmtree.MoveError, match=r"it is 2,1\)"):
        tree.next([("1122", (1, 0)), ("1213", "2,3")])
    with pytest.raises(mmtree.MoveError):
        mmtree.Board(4, 6).score("1122", "12")


def test_a_damaged_or_foreign_file_is_refused(tmp_path):
    good = (TREES / "knuth-4x6.mmt").read_bytes()
    bad = bytearray(good)
    bad[len(bad) // 2] ^= 1
    with pytest.raises(mmtree.TreeError):
        mmtree.Tree.from_bytes(bytes(bad))
    (tmp_path / "notes.txt").write_text("not a tree")
    with pytest.raises(mmtree.TreeError):
        mmtree.Tree(tmp_path / "notes.txt")
    with pytest.raises(mmtree.TreeError, match="directory"):
        mmtree.Tree(tmp_path)
    assert mmtree.Tree.from_bytes(good).stats["total"] == 5801


def test_a_tree_built_in_python_is_the_cli_s_file_byte_for_byte(tmp_path):
    tree = mmtree.build(4, 6, "knuth")
    assert tree.to_bytes() == (TREES / "knuth-4x6.mmt").read_bytes()
    cli("mmgen", "--pegs", "3", "--colors", "5", "--strategy", "optimal", "--out", str(tmp_path / "o.mmt"))
    optimal = mmtree.build(3, 5, "optimal")
    assert optimal.to_bytes() == (tmp_path / "o.mmt").read_bytes()
    assert optimal.stats["proven"] is True
    optimal.save(tmp_path / "saved.mmt")
    assert mmtree.Tree(tmp_path / "saved.mmt").to_bytes() == optimal.to_bytes()
    with pytest.raises(mmtree.BuildError, match="no strategy"):
        mmtree.build(4, 6, "best")


def test_a_rule_s_options_build_the_cli_s_file_and_misplaced_ones_are_refused(tmp_path):
    # most-parts looking one guess ahead at nodes of more than 10 secrets: the
    # optimum on 4x6, 5625, and mmgen's file byte for byte.
    tree = mmtree.build(4, 6, "most-parts", rollout_above=10, exact_below=5)
    cli("mmgen", "--strategy", "most-parts", "--rollout-above", "10", "--exact-below", "5",
        "--out", str(tmp_path / "r.mmt"))
    assert tree.to_bytes() == (tmp_path / "r.mmt").read_bytes()
    assert tree.stats["total"] <= mmtree.build(4, 6, "most-parts").stats["total"]
    narrow = mmtree.build(4, 6, "entropy", rollout_above=10, rollout_width=8)
    cli("mmgen", "--strategy", "entropy", "--rollout-above", "10", "--rollout-width", "8",
        "--out", str(tmp_path / "w.mmt"))
    assert narrow.to_bytes() == (tmp_path / "w.mmt").read_bytes()
    for strategy, option in [("optimal", "rollout_above"), ("consistent", "exact_below"),
                             ("knuth", "max_depth"), ("entropy", "rollout_width")]:
        with pytest.raises(mmtree.BuildError, match=f"{option} applies to"):
            mmtree.build(4, 6, strategy, **{option: 5})
    # Below mmgen's least values, refused as mmgen refuses them.
    for option, value, least in [("exact_below", 2, 3), ("rollout_above", 1, 2)]:
        with pytest.raises(mmtree.BuildError, match=f"{option} must be at least {least}"):
            mmtree.build(4, 6, "entropy", **{option: value})
        assert cli_refuses("mmgen", "--strategy", "entropy", f"--{option.replace('_', '-')}", str(value))
    with pytest.raises(mmtree.BuildError, match="rollout_width must be at least 2, not 1"):
        mmtree.build(4, 6, "entropy", rollout_above=10, rollout_width=1)


def test_ctrl_c_stops_a_long_build_and_raises_keyboard_interrupt():
    script = textwrap.dedent(
        """
        import mmtree, signal, sys
        # Ctrl-C as an interactive Python has it, even if this test runs where
        # SIGINT is ignored (a job started in the background by a shell without job
        # control), which Python would otherwise leave ignored.
        signal.signal(signal.SIGINT, signal.default_int_handler)
        heard = []
        def progress(placed, secrets):
            if not heard:
                print("building", flush=True)
            heard.append((placed, secrets))
        try:
            mmtree.build(6, 9, "knuth", progress=progress)
        except KeyboardInterrupt:
            fine = all(0 <= p <= s == 531441 for p, s in heard)
            print("interrupted", len(heard) > 0 and fine, flush=True)
            sys.exit(0)
        print("finished", flush=True)
        """
    )
    # Interrupted once the build reports (its loop runs), a second into it.
    assert ctrl_c_a_second_after(script, "building") == "interrupted True"


def ctrl_c_a_second_after(script, first_line):
    """Runs `script` in a child Python, sends it Ctrl-C a second after it prints
    `first_line`, and returns what it printed after that (it must exit 0)."""
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline().strip() == first_line
    time.sleep(1.0)
    child.send_signal(signal.SIGINT)
    try:
        out, _ = child.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        child.kill()
        out, _ = child.communicate()
        pytest.fail(f"still running 60 s after Ctrl-C; it printed {out!r}")
    assert child.returncode == 0
    return out.strip()


def test_nethack_s_drawbridge_tune_in_notes():
    tune = mmtree.Tree(TREES / "optimal-5x7.mmt", alphabet="ABCDEFG")
    assert tune.board.alphabet == "ABCDEFG"
    first = tune.next()
    assert first == "AABBC"
    moves = [(first, (1, 1))]
    shown = cli("mmlookup", "--alphabet", "ABCDEFG", "next", "--tree", str(TREES / "optimal-5x7.mmt"), "AABBC:1,1")
    assert shown.splitlines()[0] == tune.next(moves)
    assert tune.play("gabcd")[-1] == ("GABCD", (5, 0))
    with pytest.raises(mmtree.MoveError, match="one symbol per colour"):
        mmtree.Tree(TREES / "optimal-5x7.mmt", alphabet="ABC")


def mmgen_value(*args):
    return json.loads(cli("mmgen", "value", "--json", *args))


def test_an_oracle_values_a_position_off_the_tree_s_line_as_mmgen_value_does():
    oracle = mmtree.Oracle()
    moves = [("1122", (1, 0)), ("1111", "0,0")]
    value = oracle.value(moves, guesses=["3324", "3423"])
    assert value == mmgen_value("1122:1,0", "1111:0,0", "--guess", "3324", "--guess", "3423")
    assert value["secrets"] == len(mmtree.Tree(TREES / "knuth-4x6.mmt").candidates(moves))
    # The optimal guess is over by nothing; the knuth rule's hint there (3324) by more.
    over = {g["guess"]: g["over"] for g in value["guesses"]}
    assert value["best"] == "3423" and over["3423"] == 0 and over["3324"] > 0


def test_an_oracle_on_the_optimal_tree_s_line_agrees_with_the_tree():
    tree = mmtree.Tree(TREES / "optimal-4x6.mmt")
    oracle = mmtree.Oracle(4, 6)
    root = oracle.value()
    assert (root["secrets"], root["least_total"], root["best"]) == (1296, tree.stats["total"], tree.next())
    for secret in ["3632", "6543", "1111"]:
        game = tree.play(secret)
        for k in range(len(game) - 1):
            value = oracle.value(game[:k])
            assert value["best"] == game[k][0]
            assert value["least_total"] >= value["secrets"]


def test_an_oracle_says_the_fewest_guesses_that_always_suffice_as_mmgen_does():
    oracle = mmtree.Oracle()
    start = oracle.value(worst=True)
    assert start["worst"] == {"guesses": 5, "least_total": 5626}
    assert start == mmgen_value("--worst")
    assert "worst" not in oracle.value()


def test_an_oracle_refuses_bad_histories_with_typed_errors():
    oracle = mmtree.Oracle()
    with pytest.raises(mmtree.ContradictionError) as caught:
        oracle.value([("1122", (1, 0)), ("1344", (0, 1)), ("3526", (1, 2)), ("1462", (0, 0))])
    assert "move 4" in str(caught.value) and caught.value.corrections
    with pytest.raises(mmtree.MoveError, match="the last move won"):
        oracle.value([("1122", (4, 0))])
    with pytest.raises(mmtree.MoveError):
        oracle.value(guesses=["9999"])
    # The whole 5x8 board is days of search: a time limit gives up with an error.
    with pytest.raises(mmtree.BuildError, match="time limit"):
        mmtree.Oracle(5, 8).value(time_limit=0.5)


def test_the_agent_scoring_example_runs_and_its_figures_hold_together():
    example = ROOT / "ports" / "python" / "examples" / "score_agent.py"
    out = subprocess.run(
        [sys.executable, str(example), str(TREES / "optimal-4x6.mmt"), "40"],
        capture_output=True, text=True, check=True, cwd=ROOT,
    ).stdout.splitlines()
    games = int(out[0].split()[0])
    assert 40 <= games <= 41 and out[0].startswith(f"{games} games on 4x6: the agent used +")
    moves, optimal = (int(w) for w in out[2].replace(":", "").split()[1:4:2])
    assert games <= moves and 0 < optimal < moves
    # The first move of every game is the agent's 1111 at the start: its regret.
    start = mmtree.Oracle().value(guesses=["1111"])
    assert start["guesses"][0]["over"] > 0


def assert_consistent(board, game):
    """Each guess of `game` is one the answers before it allow; the last wins."""
    secret = game[-1][0]
    assert game[-1][1] == (len(secret), 0)
    for i, (guess, answer) in enumerate(game):
        assert board.score(guess, secret) == answer
        assert all(board.score(g, guess) == a for g, a in game[:i])


def test_the_longest_consistent_game_is_mmgen_longest_s():
    found = mmtree.longest(4, 5)
    said = json.loads(cli("mmgen", "longest", "--pegs", "4", "--colors", "5", "--json"))
    assert found["guesses"] == said["guesses"] == 9 and found["proven"]
    assert [(g, f"{b},{w}") for g, (b, w) in found["game"]] == [tuple(m) for m in said["game"]]
    assert found["sets"] == said["sets"]
    assert_consistent(mmtree.Board(4, 5), found["game"])
    without = mmtree.longest(4, 6, repeat=False)
    assert without["guesses"] == 7 and without["proven"]


def test_a_longest_game_cut_short_is_a_game_not_a_proof():
    # 5x6 takes minutes: stopped at once, the game found so far, no claim.
    found = mmtree.longest(5, 6, time_limit=0)
    assert not found["proven"]
    assert_consistent(mmtree.Board(5, 6), found["game"])
    with pytest.raises(mmtree.BuildError, match="time_limit"):
        mmtree.longest(4, 6, time_limit=-1)


def test_ctrl_c_stops_a_long_search_for_the_longest_game():
    script = textwrap.dedent(
        """
        import mmtree, signal, sys
        signal.signal(signal.SIGINT, signal.default_int_handler)
        print("searching", flush=True)
        try:
            mmtree.longest(5, 6)
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            sys.exit(0)
        print("finished", flush=True)
        """
    )
    assert ctrl_c_a_second_after(script, "searching") == "interrupted"
