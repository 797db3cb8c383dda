// The HTML report's explorer (bench/views/html.py inlines it): filters, sorting and a drill-down to
// each run. The runs are the JSON of <script id="runs-data">; nothing is fetched.
"use strict";

const DATA = JSON.parse(document.getElementById("runs-data").textContent);
const RUNS = DATA.runs;
const PAGE = 300; // rows shown at first, and added by "show more"
const FILTERS = ["family", "ladder", "config", "rung", "status"];
// The runs table: [header, field, kind]; "rung" sorts by rung_index, "answer" is computed.
const COLUMNS = [
  ["family", "family", "text"], ["ladder", "ladder", "text"], ["rung", "rung", "rung"],
  ["config", "config", "text"], ["instance", "instance", "text"], ["status", "status", "text"],
  ["t_wall s", "t_wall", "num"], ["nodes", "work_nodes", "num"],
  ["score / objective", "answer", "answer"], ["verdict", "verdict", "text"],
];
// The drill-down: [title, [[label, field], ...]].
const DETAIL = [
  ["Instance", [["name", "instance_name"], ["id", "instance_id"], ["source", "source"],
    ["family", "family"], ["ladder", "ladder"], ["rung", "rung"], ["feasible", "feasible"],
    ["known optimum", "known_optimum"], ["max score", "max_score"]]],
  ["Solver", [["config", "config"], ["solver", "solver"], ["paradigm", "paradigm"],
    ["backend", "backend"], ["seed", "seed"], ["repeat", "repeat"], ["cores", "cores"]]],
  ["Outcome", [["status", "status"], ["claimed", "claimed"], ["verified", "verified"],
    ["verdict", "verdict"], ["score", "score"], ["objective", "objective"],
    ["solutions", "solutions"], ["message", "message"]]],
  ["Cost", [["wall s", "t_wall"], ["cpu s", "t_cpu"], ["prepare s", "t_prepare"],
    ["encode s", "t_encode"], ["solve s", "t_solve"], ["peak MB", "peak_rss_mb"],
    ["peak MB (cgroup)", "peak_cgroup_mb"],
    ["budget s", "budget_s"], ["budget MB", "budget_mb"], ["nodes", "work_nodes"],
    ["conflicts", "work_conflicts"], ["restarts", "work_restarts"],
    ["model variables", "model_vars"], ["model constraints", "model_constraints"]]],
  ["Run", [["started", "started_at"], ["host", "host"], ["key", "key"], ["limits by", "limits_by"],
    ["limits", "limits"]]],
];

// Until a column is clicked, runs are in the page's order: family, ladder, rung, config.
const state = { sort: null, ascending: true, limit: PAGE, open: new Set() };
const $ = (id) => document.getElementById(id);

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  for (const child of children) {
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function fmt(value) {
  if (value === undefined || value === null) return "";
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "number") {
    if (Number.isInteger(value)) return value.toLocaleString("en-US");
    return Math.abs(value) >= 1000 ? Math.round(value).toLocaleString("en-US")
      : String(Number(value.toPrecision(3)));
  }
  return String(value);
}

function answer(run) {
  if (run.max_score !== undefined) {
    return run.score === undefined ? "" : `${fmt(run.score)}/${fmt(run.max_score)}`;
  }
  return run.objective === undefined ? "" : fmt(run.objective);
}

function field(run, name) {
  if (name === "instance") return run.instance_name || (run.instance_id || "").slice(0, 12);
  if (name === "answer") return answer(run);
  return run[name];
}

function sortValue(run, kind, name) {
  if (kind === "rung") return run.rung_index ?? Infinity;
  if (kind === "answer") return run.max_score !== undefined ? run.score : run.objective;
  return field(run, name);
}

function natural(a, b) {
  const pseudo = (run) => Number(run.ladder === "(instances)"); // outside ladders: last
  return compare(a.family, b.family) || compare(pseudo(a), pseudo(b))
    || compare(a.ladder, b.ladder) || compare(a.rung_index, b.rung_index)
    || compare(a.config, b.config) || compare(field(a, "instance"), field(b, "instance"))
    || a.id - b.id;
}

function compare(a, b) {
  const missingA = a === undefined || a === null, missingB = b === undefined || b === null;
  if (missingA || missingB) return missingA - missingB;
  if (typeof a === "number" && typeof b === "number") return a - b;
  return String(a).localeCompare(String(b), "en", { numeric: true });
}

// ---------------------------------------------------------------------------------------------
// filters

function filterValues() {
  const values = {};
  for (const name of FILTERS) values[name] = $(`filter-${name}`).value;
  values.text = $("filter-text").value.trim().toLowerCase();
  return values;
}

function matches(run, f) {
  for (const name of FILTERS) if (f[name] && String(run[name] ?? "") !== f[name]) return false;
  if (f.text) {
    const hay = [run.instance_name, run.instance_id, run.source, run.verdict, run.message]
      .join(" ").toLowerCase();
    if (!hay.includes(f.text)) return false;
  }
  return true;
}

function fillFilters() {
  for (const name of FILTERS) {
    const select = $(`filter-${name}`);
    const seen = new Map();
    for (const run of RUNS) {
      const value = run[name];
      if (value === undefined || seen.has(value)) continue;
      seen.set(value, name === "rung" ? (run.rung_index ?? Infinity) : value);
    }
    const values = [...seen.keys()].sort((a, b) => compare(seen.get(a), seen.get(b)) ||
      compare(a, b));
    for (const value of values) select.append(el("option", { value }, value));
    select.addEventListener("change", () => { state.limit = PAGE; apply(); });
  }
  $("filter-text").addEventListener("input", () => { state.limit = PAGE; apply(); });
  $("filter-reset").addEventListener("click", () => setFilters({}));
}

function setFilters(values) {
  for (const name of FILTERS) $(`filter-${name}`).value = values[name] || "";
  $("filter-text").value = values.text || "";
  state.limit = PAGE;
  apply();
}

// The summaries follow the filters too: a ladder not chosen is hidden, a config not chosen
// leaves its rows (the virtual best stays).
function applyToSummaries(f) {
  for (const article of document.querySelectorAll("article.ladder")) {
    const shown = (!f.family || article.dataset.family === f.family) &&
      (!f.ladder || article.dataset.ladder === f.ladder);
    article.classList.toggle("hidden", !shown);
  }
  for (const section of document.querySelectorAll("section.family")) {
    const any = section.querySelector("article.ladder:not(.hidden)");
    section.classList.toggle("hidden", !any);
  }
  for (const row of document.querySelectorAll("tr[data-config]")) {
    row.classList.toggle("hidden", Boolean(f.config) && row.dataset.config !== f.config);
  }
  // a paired comparison stays while either of its two configs is chosen
  for (const row of document.querySelectorAll("tr[data-configs]")) {
    const pair = JSON.parse(row.dataset.configs);
    row.classList.toggle("hidden", Boolean(f.config) && !pair.includes(f.config));
  }
}

// ---------------------------------------------------------------------------------------------
// the runs table

function headerRow() {
  const row = el("tr");
  COLUMNS.forEach(([title, name, kind]) => {
    const th = el("th", { class: kind === "text" || kind === "rung" ? "text" : "" }, title);
    if (state.sort === name) {
      th.setAttribute("aria-sort", state.ascending ? "ascending" : "descending");
    }
    th.addEventListener("click", () => {
      state.ascending = state.sort === name ? !state.ascending : true;
      state.sort = name;
      apply();
    });
    row.append(th);
  });
  return row;
}

function runRow(run) {
  const row = el("tr", { class: "run", "data-run": run.id });
  for (const [, name, kind] of COLUMNS) {
    const cls = [kind === "num" || kind === "answer" ? "" : "text"];
    if (name === "status") cls.push(`status-${run.status}`);
    if (name === "verdict") cls.push("verdict");
    const value = field(run, name);
    const td = el("td", { class: cls.join(" ").trim() }, fmt(value));
    if (name === "verdict" && value) td.title = value;
    row.append(td);
  }
  row.addEventListener("click", () => toggleDetail(run.id));
  return row;
}

function apply() {
  const f = filterValues();
  applyToSummaries(f);
  const shown = RUNS.filter((run) => matches(run, f));
  if (state.sort !== null) {
    const kind = COLUMNS.find((c) => c[1] === state.sort)[2];
    shown.sort((a, b) => {
      const order = compare(sortValue(a, kind, state.sort), sortValue(b, kind, state.sort));
      return (state.ascending ? order : -order) || natural(a, b);
    });
  }
  const table = $("runs");
  table.tHead.replaceChildren(headerRow());
  const body = document.createDocumentFragment();
  for (const run of shown.slice(0, state.limit)) {
    body.append(runRow(run));
    if (state.open.has(run.id)) body.append(detailRow(run));
  }
  table.tBodies[0].replaceChildren(body);
  for (const id of state.open) {
    const row = table.querySelector(`tr.run[data-run="${id}"]`);
    if (row) row.classList.add("open");
  }
  $("shown").textContent = `${shown.length} of ${RUNS.length} runs`;
  const rest = shown.length - state.limit;
  $("more").classList.toggle("hidden", rest <= 0);
  $("more").textContent = `show ${Math.min(rest, PAGE)} more of ${Math.max(rest, 0)}`;
}

// ---------------------------------------------------------------------------------------------
// drill-down

function keyValues(title, pairs) {
  const rows = pairs.filter(([, value]) => value !== undefined && value !== null && value !== "")
    .map(([label, value]) => el("tr", {}, el("th", {}, label), el("td", {}, fmt(value))));
  if (!rows.length) return null;
  return el("section", {}, el("h4", {}, title), el("table", {}, el("tbody", {}, ...rows)));
}

function pictureOf(run) {
  if (run.picture === undefined) return null;
  const source = $(`pic-${run.picture}`);
  if (!source) return null;
  const body = source.tagName === "IMG"
    ? el("img", { src: source.getAttribute("src"), alt: `answer of run ${run.id}` })
    : el("p", { class: "note" }, source.textContent);
  return el("section", {}, el("h4", {}, "Answer"), body);
}

function detailRow(run) {
  const parts = [];
  for (const [title, fields] of DETAIL) {
    parts.push(keyValues(title, fields.map(([label, name]) => [label, run[name]])));
    if (title === "Instance" && run.params) {
      parts.push(keyValues("Instance parameters", Object.entries(run.params)));
    }
    if (title === "Solver" && run.solver_params) {
      parts.push(keyValues("Solver parameters", Object.entries(run.solver_params)));
    }
  }
  if (run.counters) parts.push(keyValues("Counters", Object.entries(run.counters)));
  parts.splice(1, 0, pictureOf(run));
  const drill = el("div", { class: "drill" }, ...parts.filter(Boolean));
  return el("tr", { class: "detail", "data-detail": run.id },
    el("td", { colspan: COLUMNS.length }, drill));
}

function toggleDetail(id) {
  if (state.open.has(id)) state.open.delete(id); else state.open.add(id);
  apply();
}

function openRun(id) {
  const run = RUNS.find((r) => r.id === id);
  if (!matches(run, filterValues())) setFilters({});
  state.open.add(id);
  state.limit = RUNS.length; // the run's row must be among those drawn, wherever it sorts
  apply();
  const row = document.querySelector(`#runs tr.run[data-run="${id}"]`);
  if (row) row.scrollIntoView({ block: "center" });
}

// ---------------------------------------------------------------------------------------------
// the summary tables: sortable, their cells filter the runs

function sortStatic(table, column, th) {
  const ascending = th.getAttribute("aria-sort") !== "ascending";
  for (const other of table.tHead.rows[0].cells) other.removeAttribute("aria-sort");
  th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
  const body = table.tBodies[0];
  const rows = [...body.rows];
  const value = (row) => {
    const cell = row.cells[column];
    const v = cell.dataset.v ?? cell.textContent;
    return v !== "" && !Number.isNaN(Number(v)) ? Number(v) : (v === "" ? null : v);
  };
  rows.sort((a, b) => (a.classList.contains("vbs") - b.classList.contains("vbs")) ||
    (ascending ? 1 : -1) * compare(value(a), value(b)));
  body.replaceChildren(...rows);
}

function wireStaticTables() {
  for (const table of document.querySelectorAll("table.sortable:not(#runs)")) {
    [...table.tHead.rows[0].cells].forEach((th, i) => {
      th.addEventListener("click", () => sortStatic(table, i, th));
    });
  }
  for (const cell of document.querySelectorAll("td.cell")) {
    cell.addEventListener("click", () => {
      setFilters({ family: cell.dataset.family, ladder: cell.dataset.ladder,
        config: cell.dataset.config, rung: cell.dataset.rung });
      $("runs-section").scrollIntoView();
    });
  }
  for (const link of document.querySelectorAll("a[data-run]")) {
    link.addEventListener("click", (event) => {
      event.preventDefault();
      openRun(Number(link.dataset.run));
    });
  }
  for (const link of document.querySelectorAll("a[data-text]")) {
    link.addEventListener("click", (event) => {
      event.preventDefault();
      setFilters({ text: link.dataset.text });
      $("runs-section").scrollIntoView();
    });
  }
  for (const img of document.querySelectorAll(".figs img")) {
    img.addEventListener("click", () => img.closest("figure").classList.toggle("zoom"));
  }
}

RUNS.sort(natural);
fillFilters();
wireStaticTables();
$("more").addEventListener("click", () => { state.limit += PAGE; apply(); });
apply();
document.body.dataset.ready = "yes";
