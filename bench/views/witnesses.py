"""One witness per paradigm: where a ranking of paradigms rests on one engine or one model.

Seed 004's remark, made a check: N solvers of one family are one witness. When a ladder ranks
paradigms (its configs come from two paradigms or more) and every config of one paradigm runs
the same engine (one ``backend``, e.g. every SAT row is python-sat's CaDiCaL; not for
``native``, whose backend is a compiler and whose search is the solver itself) or the same model
(one ``solver``: the same encoder, e.g. every ILP row is one formulation whatever the MIP
solver's options), then what the ladder says about that paradigm is what it says about that
engine or that model: the report says so. A paradigm with a single config is the extreme case.

:func:`single_witnesses` computes the list from a frame normalised by
``bench.views.stats.normalize`` (skipped runs count: they are configs the ladder ranked): per
(family, ladder, paradigm) with one engine or one model, the configs, the engines and the
models, and the sentence the report prints. What the table cannot tell: a program that reads
another solver's model (a tool adapter's source, bench/tools/) has a ``solver`` of its own, so
two programs on one CNF count as two models here.
"""

from __future__ import annotations

import pandas as pd

WITNESS_COLUMNS = ["family", "ladder", "paradigm", "configs", "engines", "models", "note"]


def _names(values: pd.Series) -> list[str]:
    return sorted({str(v) for v in values.dropna() if str(v)})


def single_witnesses(data: pd.DataFrame) -> pd.DataFrame:
    """Each (family, ladder, paradigm) of a ladder with two paradigms or more whose configs
    share one engine or one model, and the report's sentence about it."""
    rows: list[list[str]] = []
    if "paradigm" not in data.columns:  # an old or hand-made table: nothing to say
        return pd.DataFrame(rows, columns=WITNESS_COLUMNS)
    data = data.assign(**{c: data[c] if c in data.columns else pd.NA for c in ("backend",)})
    for (family, ladder), runs in data.groupby(["family", "ladder"], sort=True, dropna=False):
        paradigms = runs["paradigm"].dropna()
        if paradigms.nunique() < 2:
            continue
        for paradigm, mine in runs.groupby("paradigm", sort=True):
            configs = _names(mine["config"])
            engines, models = _names(mine["backend"]), _names(mine["solver"])
            shares_engine = len(engines) == 1 and paradigm != "native"
            if len(configs) > 1 and not shares_engine and len(models) > 1:
                continue
            rows.append([family, ladder, paradigm, ", ".join(configs), ", ".join(engines),
                         ", ".join(models), _sentence(paradigm, configs, engines, models)])
    return pd.DataFrame(rows, columns=WITNESS_COLUMNS)


def _sentence(paradigm: str, configs: list[str], engines: list[str], models: list[str]) -> str:
    if len(configs) == 1:
        return f"{paradigm} is one config ({configs[0]}, {engines[0] if engines else '?'})"
    shared = []
    if len(engines) == 1 and paradigm != "native":
        shared.append(f"one engine ({engines[0]})")
    if len(models) == 1:
        shared.append(f"one model ({models[0]})")
    return f"all {len(configs)} {paradigm} configs share {' and '.join(shared)}"


def ladder_note(rows: pd.DataFrame) -> str:
    """One ladder's single witnesses (rows of :func:`single_witnesses`) as one sentence."""
    return "; ".join(rows["note"]) + ": each is one witness for its paradigm"
