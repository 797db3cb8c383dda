"""The registry of reference files: each file's place in the data folder, its sha256 and size
(computed from ``../shared/data``), and where it comes from.

An entry's ``origin`` says how ``cliffbench data fetch`` gets it:

- ``direct``: the public file is byte-identical to ours; it is downloaded as is.
- ``derived``: ours was made from public files (a sample, a reformatted list, our own header);
  the sources are downloaded and a recipe of ``bench.data.recipes`` rebuilds ours. A source's
  sha256 is recorded where its bytes could be established from stored copies of the public
  repository, else it is None and the note says so; the rebuilt file's sha256 is checked
  against ours in every case.
- ``generated``: a construction, not data; the recipe builds it, nothing is downloaded.
- ``mirror``: the public original of our bytes is not established (or is a table compiled
  here); only a mirror of the data folder (``--mirror URL``) provides it.

URLs pin the commit of the version that was compared, in the form
``https://raw.githubusercontent.com/OWNER/REPO/COMMIT/PATH``. The registry is plain data: this
module imports nothing but the standard library.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

RAW = "https://raw.githubusercontent.com"


@dataclass(frozen=True)
class Source:
    """A public file an entry is fetched or rebuilt from; ``sha256`` None when its bytes could
    not be established (the rebuilt file is checked all the same)."""

    url: str
    sha256: str | None


@dataclass(frozen=True)
class DataFile:
    """One file of the data folder and the way to get it (see the module's docstring)."""

    path: str
    sha256: str
    size: int
    origin: str
    sources: tuple[Source, ...] = ()
    recipe: str | None = None
    params: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)
    note: str = ""


def github(repo: str, commit: str, path: str) -> str:
    """The raw URL of ``path`` in ``repo`` (owner/name) at ``commit``."""
    return f"{RAW}/{repo}/{commit}/{path}"


OJIZOSAN = ("ojizosan/sudoku-solver-go", "36b1726a6a09b232b1479735889f558c447e33c6")
BALMERDX = ("balmerdx/sudoku_pytorch", "772077fccc4d4b45f3783f4e11ec176ba83f6bb9")
XCOVER = "johnrudge/xcover"
RAPHAEL = "raphael-anjou/eternity2"
CLUE_DATA = "research/topics/clue-puzzle-pieces/data"
LADDER_RESULTS = "research/topics/scaling-ladder/results"
LADDER_COMMIT = "9d5d187c59d1e9639405e8e687c9b3b98cd10fbd"
LEE_15 = Source(github("Lee-Li-404/15Puzzle_Search", "9b1db5042a7d13b7b1dd18958bd5b0c7dd96f53b",
                       "test_full.txt"),
                "bf5f8b5259291e0138d919edde231beaddc18e3cd4dde60d692329ece1beeddb")
KORF_24 = Source(github("clausecker/24puzzle", "f9c3cba1c3db41404bf2f25e65a8fc402725282c",
                        "doc/korf.txt"),
                 "161b04dac44035df331c733405523c27626a099ecb19980c7e7980b37b2f79a0")
E2_PIECES = Source(github("jwortmann/Eternity2Puzzles.jl",
                          "0e42b400fc186b57edd698113c05ec89803ffad9", "pieces/e2pieces.txt"),
                   "455f36492b2daae7d730c8042accffe9532ac8aee6a2d039942bbf45fdd8e0c2")
LANGFORD_SHA = "9490bbfa1275810173c6f7ad396881b5579b3954ed8d62e72c194bc19de86a2e"
LANGFORD = Source(github(XCOVER, "8c89dc7c39604db1f619de751e23c17376b91d99",
                         "src/test/langford8.txt"), LANGFORD_SHA)

ETERNITY2_HEADER = (
    "Eternity II (TOMY 2007) official 256-piece set, 16x16, 22 colours + grey (0).",
    "Colour numbering: 1..5 = the 5 frame/border colours (only on edge-piece joins), "
    "6..22 = the 17 inner colours.",
    "Piece ids 1..256 = official numbering (1-4 corners, 5-60 edge pieces, 61-256 inner).",
    "Hints: 139 is the mandatory starter piece (square I8 = row 8, col 7 zero-based); the other "
    "four come from clue puzzles:",
    "  208 at C3 (2,2), 255 at C14 (2,13), 181 at N3 (13,2), 249 at N14 (13,13).",
    "Hint rotations verified against the three Riotte 464 strict-five-clue record boards "
    "(see SOURCES.md).",
    "Edges listed N E S W (clockwise from top); rot = clockwise quarter turns: placed side s "
    "shows listed[(s-rot)%4].",
)
#: The official hints as ``piece row col rot`` (0-based rows and columns).
ETERNITY2_HINTS = ((139, 8, 7, 0), (181, 13, 2, 1), (208, 2, 2, 1), (249, 13, 13, 2),
                   (255, 2, 13, 1))
CLUE_FOOTER = ("no hints; board orientation free (4 symmetric copies of every solution for "
               "square boards, 2 for 6x12)",)


EASY50 = "299c9dc207d36ff7cf6f63430bc77b9b8f8818d0e17bcbe29a4643fe0d19e5f7"


def sudoku_entries() -> list[DataFile]:
    """Norvig's three sets, magictour's top1465 and the two tdoku samples."""
    return [
        DataFile("sudoku/easy50.txt", EASY50, 4100, "direct",
                 (Source(github("apauley/sudoku-in-erlang",
                                "5c9ddf39201d69a1a65b158e7f9149ec1160cb50", "easy50.txt"),
                         EASY50),),
                 note="Norvig's easy50 (Project Euler 96), one puzzle a line"),
        DataFile("sudoku/top95.txt",
                 "b16eff35fbe41fb7b122f21c5c6ba30b85861b47946d33257070df1a69cddd36", 7790,
                 "derived",
                 (Source(github(*OJIZOSAN, "top95.txt"),
                         "93f3547eee4d5efd5e0d81dfbcbca389b27e059763674b2040b7915fc7a7b1b3"),),
                 "count_line_dropped", note="Norvig's top95; the copy starts with a count line"),
        DataFile("sudoku/hardest.txt",
                 "398e1e5df4f50723078e3b510e00ea7eb9e104c521a9a186b4c20cd066c0459f", 902,
                 "derived",
                 (Source(github(*OJIZOSAN, "hardest.txt"),
                         "395a01c6052a26e23c526fe11cdf6e79f07feb2ab017970ad6777e4081744f4b"),),
                 "count_line_dropped", note="Norvig's hardest; the copy starts with a count line"),
        DataFile("sudoku/top1465.txt",
                 "21d82f285082dc0db051f407cf23103af76bf077b368b04bd9e619f2bf6d2c1b", 120130,
                 "derived", (Source(github(*BALMERDX, "data/puzzles3_magictour_top1465"), None),),
                 "puzzle_lines",
                 note="magictour top1465 as tdoku ships it; the source's sha256 is not "
                      "established (stored copy: 120,176 characters, two comment lines, the "
                      "puzzles, a blank line)"),
        DataFile("sudoku/17clue_sample1000.txt",
                 "0d50b226cde7e31a6560f6147f22ff9bb8ae0806abd6d922f15bd0349c4f24e5", 82000,
                 "derived", (Source(github(*BALMERDX, "data/puzzles2_17_clue"), None),),
                 "puzzle_lines", {"step": 49, "count": 1000},
                 note="every 49th of Royle's 49,158 17-clue puzzles from the first; the "
                      "source's sha256 is not established (4,080,411 characters, CRLF lines)"),
        DataFile("sudoku/forum_hardest_1905_11plus_sample1000.txt",
                 "3ed0a0fe91d5e2b097805c88ba68a15567f4a7d70719639cc073816b127ae2ab", 82000,
                 "mirror",
                 note="not established: puzzles 2..1000 are lines 48, 96, ..., 47952 (every "
                      "48th) of the 48,765 in " + github("xiej2520/SudukoSolver",
                                                         "1214633a958254bfd67f6f23c1d2f3ca2fbfec38",
                                                         "data/puzzles5_forum_hardest_1905_11+")
                      + ", but puzzle 1 is not in that copy (tdoku's own list, in its "
                        "data.zip, probably starts with it)"),
    ]


def tiles_entries() -> list[DataFile]:
    """Korf's 100 15-puzzles and Korf and Felner's 50 24-puzzles, with the published nodes."""
    return [
        DataFile("tiles/korf100_15puzzle.txt",
                 "4542b88b39563e74a912eb5f9edd243455908109a7c61dfabc41473cf329d888", 4563,
                 "derived", (LEE_15,), "korf15_instances", {"header": (
                     "Korf (1985) 100 random 15-puzzle instances. Format: id optimal_length "
                     "t0 .. t15",
                     "t_i = tile in cell i (row-major, 4x4), 0 = blank. Goal: 0 1 2 ... 15 "
                     "(blank top-left).")}),
        DataFile("tiles/korf100_15puzzle_korf1985_nodes.txt",
                 "25647efe6a52bd8583e8e45ff7579c57987259089e664c1f1ab18953d718e91c", 1634,
                 "derived", (LEE_15,), "korf15_nodes", {"header": (
                     "id optimal_length nodes_generated_IDA*_Manhattan_as_listed_in_Korf_1985 "
                     "(via Lee-Li-404/15Puzzle_Search test_full.txt)",)}),
        DataFile("tiles/korf50_24puzzle.txt",
                 "3087f9eb3317ffe212912b2f56e121ea89be90adbcf3dffa99f19dec82cc1ec5", 3750,
                 "derived", (KORF_24,), "korf24_instances", {"header": (
                     "Korf & Felner (2002) 50 random 24-puzzle instances. Format: id "
                     "optimal_length t0 .. t24",
                     "t_i = tile in cell i (row-major, 5x5), 0 = blank. Goal: 0 1 2 ... 24 "
                     "(blank top-left).")}),
        DataFile("tiles/korf50_24puzzle_kf2002_nodes.txt",
                 "9c1c56add12b0e11ebb4d552074669b3e5739d4886b6d4397d8402c2d1261428", 1067,
                 "derived", (KORF_24,), "korf24_nodes", {"header": (
                     "Korf & Felner (2002) 24-puzzle, IDA* with 6-6-6-6 disjoint PDBs + "
                     "reflection: nodes per instance (published)",
                     "id optimal_length nodes")}),
    ]


def eternity2_entries() -> list[DataFile]:
    """The official 256-piece set, with the five hints and with the starter piece only."""
    starter = "This variant pins only the mandatory starter piece 139 (the regime of the " \
              "467..470 records)."
    return [
        DataFile("edgematch/eternity2/eternity2_5hints.emp",
                 "b16d27151b3cc0ecf00a5a2d5f0c84b0bacf0e165b221eb263e9fdd46b2f4178", 4957,
                 "derived", (E2_PIECES,), "eternity2_emp",
                 {"name": "eternity2_official_5hints", "header": ETERNITY2_HEADER,
                  "hints": ETERNITY2_HINTS},
                 note="same pieces as raphael-anjou/eternity2's official CSV"),
        DataFile("edgematch/eternity2/eternity2_starter_only.emp",
                 "3466877173c28fd46118b043b2f94936fe7aa64eda61fce5101d7f5bdf67153c", 5006,
                 "derived", (E2_PIECES,), "eternity2_emp",
                 {"name": "eternity2_official_starter_only",
                  "header": (*ETERNITY2_HEADER, starter), "hints": ETERNITY2_HINTS[:1]}),
    ]


def clue_entries() -> list[DataFile]:
    """The four official clue puzzles, colours compacted."""
    listed = (
        (1, 6, 6, "7e686d8c0d761c40f7bb3151bfab662a511e393c", "clue1_shorter36.txt",
         "92dd68d6bcb9730375d7d2485ba6f9cb48c957193e8d273deb61df7e085ecd77",
         "f6c4642f25d384833169ac73d4021f41064d5da312dfa113e3501b17cc89d520", 975,
         "Armel Le Bail SHORTER example shorter36 (cristal.org, 2007) via raphael-anjou/eternity2 "
         "research/topics/clue-puzzle-pieces/data/clue1_shorter36.txt; ids as in that file; "
         "same puzzle as jwortmann pieces/clue1.txt up to colour relabelling 6,7,8->5,6,7"),
        (2, 6, 12, "34782c02b2882122af748239077441fcf54f42ba", "clue2_shorter72.txt",
         "08d25d50e52c5e17b0e55f61b8b6c466beaa784af6c92c01052fb4aaa384ef71",
         "0bf990c00fc540cd2648f709269271592549c932879b4905a4c5cab823f7c762", 1323,
         "Le Bail shorter72 via raphael-anjou/eternity2 .../clue2_shorter72.txt; = jwortmann "
         "pieces/clue2.txt up to colour relabelling"),
        (3, 6, 6, "48e064fc23c4c32b993f3d7687289264a47517ad", "clue3_jwortmann.txt",
         "302dc53673e9411f17038efbccdacbdb5f815cc40ce7ba277e001c4458f5aa09",
         "d722716ca8d84bc5c9a3fc2be117a4ae99887bf0d7daf17ca9fe7531dd36fc2a", 801,
         "jwortmann/Eternity2Puzzles.jl pieces/clue3.txt (ids = line numbers)"),
        (4, 6, 12, "d70572e7c0cd084e35a9db95d6381a265a691f82", "clue4_jwortmann.txt",
         "292ae935e48bf8f81e33fe2871bafd5b6dbb4bfaca1a177186783eaa5727e95e",
         "7f3170828f772d148a2a3434960632fe1e839f4a901c70422ef6bdeb6ae185fe", 1273,
         "jwortmann/Eternity2Puzzles.jl pieces/clue4.txt (ids = line numbers)"),
    )
    return [DataFile(f"edgematch/clues/clue{k}.emp", ours, size, "derived",
                     (Source(github(RAPHAEL, commit, f"{CLUE_DATA}/{name}"), source_sha),),
                     "clue_emp",
                     {"name": f"eternity2_clue{k}", "rows": rows, "cols": cols,
                      "header": (f"Eternity II clue puzzle {k} ({rows}x{cols}).", said),
                      "footer": CLUE_FOOTER})
            for k, rows, cols, commit, name, source_sha, ours, size, said in listed]


#: The 32 planted boards of the shared ladder: (n, seed) -> (sha256, size).
LADDER = {
    (8, 1): ("2e3c220a75c30c1ad8d4265b9e36beabbbf60f9d71e8c3c058e746dd8a3d2d7a", 2079),
    (8, 2): ("ee7d91dc3f20881587c5f4b66f01908e61ae24156f4e440fb640d83a076d5f22", 2079),
    (8, 3): ("c03f48d47f2439b7b2076e51bb1bc5995bd2f01c459b9c28b28c2a09dd7ba0a0", 2079),
    (8, 4): ("5a08095c02b9c123b9860897869c96c773a16127b52c5939ca26d37cd1e39ea1", 2079),
    (8, 5): ("af125cebf22204e5743bd91959e77027f8f7cd51f740ffc18760999c922e52a5", 2079),
    (8, 6): ("86289e42af6aacada01aa9f67589bdefc175f855b52311aaed22267cdbb2c96d", 2079),
    (8, 7): ("b4ead21063de2e22405956a1a821fe36bef173119d749b9dd03710e13deb7e1e", 2079),
    (8, 8): ("c266d3768fe250d856e535b3f025ffdc7d3ccee7e112d28a332b2576f4259eb0", 2079),
    (10, 1): ("27861a73b1469ee227d47c3f1f1f83344c81d184f80592503d55f2a029a3f21f", 3038),
    (10, 2): ("3ffa77a258db5664134ac53332bbdbe0444c3e5d198d90c0436ea79dee83eaa3", 3038),
    (10, 3): ("1dfa2cb9a7fe9a186efa114d48226c1c6fc8c175b47558c7b289f4ce7223f3a1", 3038),
    (10, 4): ("00071b38d6f80cd6a63b03b1b8382f2d4be85284c75c669cffa2c1f6d57046f3", 3038),
    (10, 5): ("80b7112a9177fcf7e385799d34ed74cc5b46a518e8d2eba2bbf3a304fad8f691", 3038),
    (10, 6): ("3e009ceea7afa5d07a238a48751a214e440251f793876a63065b93a01c0ca66d", 3038),
    (10, 7): ("4bbd5ba06f2285205710e354fafd406c37f90a79dd17e1026180f63eabb8cd58", 3038),
    (10, 8): ("06361a80d38d5ef9baf838e7871caa6effeaf3d3cba707b20219d9a2aed30730", 3038),
    (12, 1): ("1be4e3a57c65b8e8793a99216c51d4474e90524fb7d2b1affbfc32149e83efd2", 4350),
    (12, 2): ("a475d95ea5c797f253de8b797465f60dba2fd5d85acd9ad82c989d4d2222919b", 4350),
    (12, 3): ("30f28121c7f30e6e94f5284b4ace677f85c6c6ef069e9d86f846d3ddace2d06d", 4350),
    (12, 4): ("5767bd1e00a04a0e7d772b1c2b0292f194f51c9841809b92c45bcb192241d1a1", 4350),
    (12, 5): ("ceeaa89952d17572e89672b8fa5068222a73a2afe9417029eaa60a7ac42e97b7", 4350),
    (12, 6): ("6e5e71d9d1c9c95fcef0169900bc998387bb60c982f94e803c197d25c1678b39", 4350),
    (12, 7): ("d19f0b5f7905cd71875be1233cb7bab7e228cc76543b5cf74d542bc076f3b427", 4350),
    (12, 8): ("7e271261324eee54b7d2bff06b175b5e6242a13d9c8926580d353016f7e45643", 4350),
    (14, 1): ("475628ae7c038dc80c153c193089e127c9c155e4d192fcf292d3adf5993b80e2", 5902),
    (14, 2): ("5e7ac05e1e9babd118a19b37d0feb6edacdf5bfaba74f3223b2d920cf9718eb7", 5902),
    (14, 3): ("956b0c73a6ede1ebe11f19e42ba54596063a8f7cc0b3b0588c8cbd51d768e44b", 5902),
    (14, 4): ("3aba5c51a9dc6adab158cf11c3338540813e950f7c5391e1442afd829e2c2814", 5902),
    (14, 5): ("79da9ebe1f87c4be0c1b6e81c7e95ae2d1441955f02de50f17b83d8cd04065f0", 5902),
    (14, 6): ("aff30d4589bea5e61d8e4e0a93e8d2f7d7aa9d38ba3188026ea55cf0dceec11e", 5902),
    (14, 7): ("d02d5fe63cb87df42ef7f2d4bd3f827ef1cdce0a82e15a48c42fc50f4ab73e91", 5902),
    (14, 8): ("5b13c31b745dbad5b619006d811532d501be815e6ced6b2c92ea36ae8a4c0a40", 5902),
}


def ladder_entries() -> list[DataFile]:
    """The shared ladder's boards (mirror only) and its summary (direct)."""
    rungs = github(RAPHAEL, LADDER_COMMIT, f"{LADDER_RESULTS}/rungs.txt")
    boards = [DataFile(f"edgematch/ladder_c22/ladder_n{n}_c22_s{seed}.emp", sha, size, "mirror",
                       note=f"the planted board is in {rungs}; the pieces were shuffled and "
                            "turned with a seeded generator that is not recorded, so the "
                            "bytes cannot be rebuilt")
              for (n, seed), (sha, size) in LADDER.items()]
    summary = "4be8a839cd5660d38537c7691717e2abc947cb93f7281f7f7f1e903638bfad58"
    return [*boards, DataFile(
        "edgematch/ladder_c22/ladder_summary.json", summary, 6689, "direct",
        (Source(github(RAPHAEL, LADDER_COMMIT, f"{LADDER_RESULTS}/summary.json"), summary),))]


def xcc_entries() -> list[DataFile]:
    """Small exact-cover-with-colours problems with known solution counts."""
    return [
        DataFile("xcc/knuth_dlx2_example.dlx",
                 "4ff4305c9da5c593ab299006ba1f7168db0765a0da5dfc9961b4d559deec7a35", 115,
                 "derived", (Source(github("ascherer/cwebtest",
                                           "559ec703d435caba26dbc5218e5def5a0c72f0a6", "dlx2.w"),
                                    None),),
                 "dlx2_example", {"suffix": " (Knuth, dlx2.w intro)"},
                 note="the test case of the intro of Knuth's dlx2.w; the source's sha256 is "
                      "not established (30,908 characters)"),
        DataFile("xcc/taocp_xcc_toy.dlx",
                 "36cdefc95aa870b5b7db6b6b8bddc2603c8d62cbee6de464f59d1046d9c5b865", 139,
                 "derived", (Source(github(XCOVER, "444602dc807341783aee7c45a759f7d1390222f8",
                                           "src/test/test_xcover.py"), None),),
                 "python_test_dlx", {"function": "test_simple_colored", "title": (
                     "toy exact cover with colors, TAOCP 7.2.2.1 eq. (49) (as in xcover "
                     "test_simple_colored)")},
                 note="the source's sha256 is not established (4,634 characters)"),
        DataFile("xcc/queens8_secondary.dlx",
                 "4996a95ad9e670248021a3952f9a126d9954e2e9b4a01116d484f9c245b85ccd", 1012,
                 "generated", (), "queens_dlx", {"n": 8, "title": (
                     "8 queens: rows/cols primary, diagonals secondary (no colours)")}),
        DataFile("xcc/langford8.txt", LANGFORD_SHA, 1064, "direct", (LANGFORD,),
                 note="xcover's test input, // comments"),
        DataFile("xcc/langford8.dlx",
                 "2f7a182ce87dfe5debe4fb47297f30aa72807c608c0ef1f00b3b419acbc2a165", 844,
                 "derived", (LANGFORD,), "comments_replaced", {"title": (
                     "Langford pairings n=8 (xcover test file), Knuth format comments")}),
    ]


def games_entries() -> list[DataFile]:
    """The known values of small games: a table compiled here from the literature."""
    return [DataFile("games/known_values.tsv",
                     "2ba8fb36225b490f02708e2638e1b476e42a48dcd91e7e2ef8270da8fbadd956", 1052,
                     "mirror", note="compiled for this project from published values (Tromp's "
                                    "Connect Four table, Bouton 1901 for Nim); no public file "
                                    "holds these bytes")]


#: Every reference file, by its path in the data folder.
FILES: dict[str, DataFile] = {entry.path: entry for entry in (
    *sudoku_entries(), *tiles_entries(), *eternity2_entries(), *clue_entries(),
    *ladder_entries(), *xcc_entries(), *games_entries())}
