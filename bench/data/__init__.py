"""The reference data (Korf's instances, Sudoku sets, Eternity II, XCC examples, game values):
which files there are and their hashes (``files``), how the derived ones are rebuilt from their
public sources (``recipes``), and fetching, verifying and finding the folder (``fetch``).
"""
