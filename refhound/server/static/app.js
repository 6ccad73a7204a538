// The refhound page: upload or paste, poll the job, show verdicts as they are decided (problems first).
// Every value from the server is put in the page as text (never as HTML); links only when http(s).
"use strict";

const API = "/api/v1";
const RANK = { fabricated: 0, metadata_error: 1, unverified: 3, verified: 4 };
let currentJob = null;
let results = [];
let threshold = null;  // the likelihood from which a reference is flagged (the report says; known when done)
const BORDERLINE = 0.2;  // within this much below the threshold: borderline

function $(id) { return document.getElementById(id); }
function plural(n, noun) { return n + " " + noun + (n === 1 ? "" : "s"); }

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "class") node.className = value; else node.setAttribute(key, value);
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return node;
}

// --- the API, with the bearer token when the server asks for one -----------------------------------

function token() { return sessionStorage.getItem("refhound-token") || ""; }

async function api(path, options) {
  const init = Object.assign({}, options || {});
  init.headers = Object.assign({}, init.headers || {});
  if (token()) init.headers["Authorization"] = "Bearer " + token();
  const response = await fetch(API + path, init);
  if (response.status === 401) {
    $("token-box").hidden = false;
    throw new Error("this server needs a token: enter it above");
  }
  return response;
}

async function errorOf(response) {
  try {
    const body = await response.json();
    if (body && body.error) return body.error;
  } catch (_) { /* not JSON */ }
  return "HTTP " + response.status;
}

async function showHealth() {
  try {
    const response = await api("/health");
    const body = await response.json();
    const covered = (body.index.complete_coverage || []).length;
    $("health").textContent = "refhound " + body.version + " · index of " + body.index.records +
      " records, " + covered + " venues covered completely · " + (body.offline ? "offline" : "online") +
      (body.status === "ok" ? "" : " · " + body.error);
    if (body.offline) {  // the server never uses the network: the box says so and cannot be unticked
      $("offline").checked = true;
      $("offline").disabled = true;
      $("offline-label").title = "this server runs with --offline";
    }
  } catch (error) {
    $("health").textContent = String(error.message || error);
  }
}

// --- the references tab -----------------------------------------------------------------------------

function rank(result) {
  if (result.verdict === "metadata_error" && result.severity === "minor") return 2;
  return RANK[result.verdict] ?? 3;
}

function verdictLabel(result) {
  if (result.verdict === "metadata_error") {
    return result.severity === "minor" ? "wrong field (minor)" : "wrong field (major)";
  }
  return result.verdict;
}

function safeUrl(url) {
  return typeof url === "string" && /^https?:\/\//i.test(url) ? url : null;
}

// The cited string with each wrong field marked where it is printed (the server says where: "marks").
function markedCitation(result) {
  const raw = result.raw || "";
  const node = el("div", { class: "cited" });
  let position = 0;
  for (const mark of result.marks || []) {
    if (mark.start < position || mark.end > raw.length) continue;
    const kind = mark.severity === "minor" ? "minor" : "wrong";
    node.append(raw.slice(position, mark.start));
    node.append(el("mark", { class: kind, title: mark.field + " is wrong" }, raw.slice(mark.start, mark.end)));
    position = mark.end;
  }
  node.append(raw.slice(position));
  return node;
}

function evidenceLink(result) {
  for (const evidence of result.evidence || []) {
    const url = safeUrl(evidence.url);
    const label = evidence.source + " " + evidence.record_id;
    if (url) return el("a", { href: url, target: "_blank", rel: "noopener noreferrer" }, label);
    return el("span", {}, label);
  }
  return null;
}

// The likelihood that the reference was invented, as a bar and its value.
function likelihoodBar(result) {
  if (typeof result.likelihood !== "number") return null;
  const share = Math.max(0, Math.min(1, result.likelihood));
  const fill = el("span", { class: "fill" });
  fill.style.width = Math.round(100 * share) + "%";
  return el("span", { class: "likelihood", title: "likelihood that the reference was invented" },
    el("span", { class: "bar" }, fill), " " + share.toFixed(2));
}

// A numbered reference reads "[4]" as in the manuscript; a BibTeX key as itself.
function idLabel(result) {
  return /^[0-9]+$/.test(result.id) ? "[" + result.id + "]" : result.id;
}

function likelihoodOf(result) { return typeof result.likelihood === "number" ? result.likelihood : 0; }

// Which group a reference is reviewed in: flagged (at or above the threshold), or by its verdict.
function groupOf(result) {
  if (threshold !== null ? likelihoodOf(result) >= threshold : result.hallucinated === true) return "flagged";
  if (result.verdict === "verified") return "verified";
  if (result.verdict === "unverified") return "unverified";
  return "wrong";
}

function isBorderline(result) {
  const t = threshold === null ? 0.5 : threshold;
  return likelihoodOf(result) < t && likelihoodOf(result) >= t - BORDERLINE;
}

// A cited work that was retracted, withdrawn or put under concern: said apart from the verdict, which is
// about whether the citation is right.
function retractionNote(retraction) {
  if (!retraction || !retraction.kind) return null;
  // A work under concern still stands: "is under an expression of concern since …", not "is expression of …".
  const concern = retraction.kind === "expression_of_concern";
  const words = concern ? "under an expression of concern" : String(retraction.kind).replace(/_/g, " ");
  const note = el("div", { class: "retraction" }, el("strong", {}, "the cited work is " + words));
  if (retraction.date) note.append((concern ? " since " : " on ") + retraction.date);
  if (retraction.notice_doi) {
    note.append(" · notice ");
    note.append(el("a", { href: "https://doi.org/" + encodeURIComponent(retraction.notice_doi).replace(/%2F/g, "/"),
      target: "_blank", rel: "noopener noreferrer" }, retraction.notice_doi));
  }
  if (retraction.source) note.append(el("span", { class: "muted" }, " (" + retraction.source + ")"));
  return note;
}

function referenceItem(result) {
  const group = groupOf(result);
  const band = group === "flagged" ? " band-flagged" : isBorderline(result) ? " band-borderline" : "";
  const item = el("li", { class: "ref" + band, "data-verdict": result.verdict, "data-id": result.id,
    "data-group": group, "data-likelihood": typeof result.likelihood === "number" ? String(result.likelihood) : "" });
  item.append(el("div", {},
    el("span", { class: "verdict " + result.verdict }, verdictLabel(result)), " ",
    el("span", { class: "refid", title: "the reference's key or number in its input" }, idLabel(result)),
    result.input ? el("span", { class: "muted" }, " · " + result.input) : null,
    group === "flagged" ? el("strong", { class: "fabricated" }, " · flagged as likely invented") : null,
    " ", likelihoodBar(result)));
  item.append(markedCitation(result));
  for (const check of result.fields || []) {
    if (check.status !== "mismatch") continue;
    const fix = el("div", { class: "fix" }, el("strong", {}, check.field + ": "),
      "cited ", el("q", {}, check.cited || "(none)"));
    if (check.found) fix.append(" → correct ", el("q", { class: "correct" }, check.found));
    if (check.note) fix.append(el("span", { class: "muted" }, " (" + check.note + ")"));
    item.append(fix);
  }
  const link = evidenceLink(result);
  if (link) item.append(el("div", { class: "fix" }, "evidence: ", link));
  const retraction = retractionNote(result.retraction);
  if (retraction) item.append(retraction);
  if (result.reason) item.append(el("div", { class: "reason" }, result.reason));
  return item;
}

const GROUPS = [
  ["flagged", "flagged"], ["wrong", "wrong field"], ["unverified", "unverified"], ["verified", "verified"],
];

function counts() {
  const by = { flagged: 0, wrong: 0, unverified: 0, verified: 0 };
  for (const result of results) by[groupOf(result)] += 1;
  return by;
}

// One bar, a segment per group in proportion to its references; a segment shows only its group.
function renderSummary() {
  const by = counts();
  const segments = GROUPS.filter(([group]) => by[group]).map(([group, label]) => {
    const segment = el("button", { type: "button", class: "seg-" + group, "data-group": group,
      title: label + ": " + by[group] }, label + " " + by[group]);
    segment.style.flex = String(by[group]);
    segment.addEventListener("click", () => { $("show").value = group === "verified" ? "all" : group; applyView(); });
    return segment;
  });
  $("summary").replaceChildren(...segments);
  $("summary").hidden = results.length === 0;
  $("controls").hidden = results.length === 0;
}

function sortKey(mode) {
  if (mode === "order") return (a, b) => a.position - b.position;
  if (mode === "verdict") return (a, b) => rank(a) - rank(b) || likelihoodOf(b) - likelihoodOf(a) || a.position - b.position;
  return (a, b) => likelihoodOf(b) - likelihoodOf(a) || rank(a) - rank(b) || a.position - b.position;
}

function shown(result, mode, text) {
  const group = groupOf(result);
  if (text && !(result.raw || "").toLowerCase().includes(text) && !String(result.id).toLowerCase().includes(text)) return false;
  if (mode === "all") return true;
  if (mode === "borderline") return isBorderline(result);
  return group === mode;
}

function renderResults() {
  // Problems first, most likely invented first (or as the sort chooses); verified ones folded below.
  const mode = $("show").value;
  const text = $("find").value.trim().toLowerCase();
  const ordered = results.slice().sort(sortKey($("sort").value));
  const problems = $("problems");
  const verified = $("verified");
  problems.replaceChildren();
  verified.replaceChildren();
  let listed = 0;
  for (const result of ordered) {
    if (groupOf(result) === "verified") { verified.append(referenceItem(result)); continue; }
    if (!shown(result, mode, text)) continue;
    problems.append(referenceItem(result));
    listed += 1;
  }
  const toReview = results.length - counts().verified;
  $("problems-box").hidden = toReview === 0;
  $("problems-title").textContent = "To review (" + listed + " of " + toReview + ")";
  $("verified-box").hidden = verified.children.length === 0;
  $("verified-title").textContent = "Verified (" + verified.children.length + ")";
  // A right citation of a retracted work is still news: its fold opens so the mark is seen.
  if (results.some((result) => groupOf(result) === "verified" && marked(result))) {
    $("verified-box").querySelector("details").open = true;
  }
  $("shown").textContent = listed + " shown";
  renderSummary();
}

function applyView() { renderResults(); }

// The run's outcome in words that agree with the lists below it.
function outcomeLine(total) {
  const by = counts();
  const parts = [];
  if (by.flagged) parts.push(plural(by.flagged, "reference") + " flagged as likely invented");
  if (by.wrong) parts.push(by.wrong + " with wrong fields");
  if (by.unverified) parts.push(by.unverified + " could not be checked");
  const found = parts.length ? parts.join(", ") : "every reference verified";
  const retracted = results.filter(marked).length;
  const marks = retracted ? "; " + plural(retracted, "cited work") + " retracted, withdrawn or under concern" : "";
  return "done: " + plural(total, "reference") + " checked — " + (by.flagged ? "" : "none flagged; ") + found + marks;
}

function marked(result) {
  return Boolean(result.retraction && result.retraction.kind);
}

function setStatus(text, isError) {
  $("status").replaceChildren(el("span", { class: isError ? "error" : "" }, text));
}

async function startCheck(event) {
  event.preventDefault();
  const form = new FormData();
  for (const file of $("files").files) form.append("file", file, file.name);
  const pasted = $("pasted").value.trim();
  if (pasted) form.append("text", pasted);
  if (!$("files").files.length && !pasted) { setStatus("choose a file or paste references", true); return; }
  form.append("offline", $("offline").checked ? "true" : "false");
  form.append("flag", $("flag").value);
  results = [];
  threshold = null;
  renderResults();
  $("downloads").hidden = true;
  $("input-problems").replaceChildren();
  $("check").disabled = true;
  try {
    const response = await api("/jobs", { method: "POST", body: form });
    if (response.status !== 202) { setStatus(await errorOf(response), true); return; }
    currentJob = (await response.json()).id;
    setStatus("queued…");
    await poll(currentJob);
  } catch (error) {
    setStatus(String(error.message || error), true);
  } finally {
    $("check").disabled = false;
  }
}

async function poll(jobId) {
  const bar = $("progress");
  bar.hidden = false;
  for (;;) {
    if (jobId !== currentJob) return;
    const response = await api("/jobs/" + encodeURIComponent(jobId) + "?since=" + results.length);
    if (!response.ok) { setStatus(await errorOf(response), true); return; }
    const job = await response.json();
    if (job.references.length) { results = results.concat(job.references); renderResults(); }
    const { decided, total } = job.progress;
    if (total) { bar.max = total; bar.value = decided; }
    if (job.status === "failed") { setStatus("failed: " + job.error, true); bar.hidden = true; return; }
    if (job.status === "done") {
      if (typeof job.report.threshold === "number") threshold = job.report.threshold;
      renderResults();
      bar.hidden = true;
      showInputProblems(job.report.problems || []);
      setStatus(outcomeLine(total));
      $("downloads").hidden = false;
      return;
    }
    setStatus(job.status === "queued" ? "queued…" :
      total === null ? "reading the input…" : decided + " of " + total + " references decided…");
    await new Promise((resolve) => setTimeout(resolve, 400));
  }
}

function showInputProblems(problems) {
  if (!problems.length) return;
  const list = el("ul", {});
  for (const problem of problems) {
    list.append(el("li", {}, problem.input + (problem.location ? " (" + problem.location + ")" : "") + ": " + problem.message));
  }
  $("input-problems").replaceChildren(el("h2", {}, "Input problems"), list);
}

async function download(format) {
  const response = await api("/jobs/" + encodeURIComponent(currentJob) + "/report?format=" + format);
  if (!response.ok) { setStatus(await errorOf(response), true); return; }
  const url = URL.createObjectURL(await response.blob());
  const link = el("a", { href: url, download: "refhound-report." + format });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

// --- the quotes tab ---------------------------------------------------------------------------------

// A citation as a reader sees it: "[Smith 2020](https://…)" shows "Smith 2020", "[^3]" shows "3".
function plainCitation(citation) {
  return String(citation)
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[\^([^\]]+)\]/g, "$1")
    .replace(/^\[([^\]]+)\]:?\s*/, "$1 ")
    .replace(/[*_`]/g, "")
    .trim();
}

async function checkQuotes(event) {
  event.preventDefault();
  const documentFile = $("q-document").files[0];
  if (!documentFile) { $("q-status").textContent = "choose a document"; return; }
  const form = new FormData();
  form.append("document", documentFile, documentFile.name);
  for (const file of $("q-sources").files) form.append("source", file, file.name);
  form.append("offline", $("q-offline").checked ? "true" : "false");
  if ($("q-evaluate").checked) form.append("evaluate", "all");
  $("q-status").textContent = "checking…";
  $("q-results").replaceChildren();
  $("q-summary").replaceChildren();
  try {
    const response = await api("/quotes", { method: "POST", body: form });
    if (!response.ok) {
      $("q-status").replaceChildren(el("span", { class: "error" }, await errorOf(response)));
      return;
    }
    const report = await response.json();
    const summary = report.summary;
    $("q-status").textContent = plural(summary.total, "quote") + " checked";
    $("q-summary").replaceChildren(...["verified", "near_match", "not_found", "citation_unresolved", "uncited"]
      .filter((s) => summary[s]).map((s) => el("span", { class: s }, s.replace("_", " ") + ": " + summary[s] + "  ")));
    if (typeof report.confidence === "number") {
      $("q-summary").append(el("span", { class: "confidence" }, "document confidence " + report.confidence.toFixed(2)));
      // What the number does not rest on (the evaluators that did not run) and what lowered it.
      const notes = report.confidence_notes || [];
      if (notes.length) $("q-summary").append(el("div", { class: "muted confidence-notes" }, notes.join("; ")));
    }
    for (const quote of report.quotes) $("q-results").append(quoteItem(quote));
  } catch (error) {
    $("q-status").replaceChildren(el("span", { class: "error" }, String(error.message || error)));
  }
}

// One quote: its status, what was changed in it (in red, whatever the status), each evaluator's verdict
// with its explanation, and its confidence.
function quoteItem(quote) {
  const altered = (quote.alterations || []).length > 0;
  const item = el("li", { class: "quote" + (altered ? " altered" : ""), "data-status": quote.status },
    el("span", { class: "verdict " + quote.status }, quote.status.replace("_", " ")), " ",
    quote.citation ? el("strong", {}, plainCitation(quote.citation) + " ") : null,
    typeof quote.confidence === "number" ? el("span", { class: "muted" }, "confidence " + quote.confidence.toFixed(2)) : null,
    el("div", { class: "cited" }, quote.quote || quote.text || ""));
  if (altered) {
    item.append(el("div", { class: "alterations" }, "changed: " + quote.alterations.join(", ")));
  }
  if (quote.note) item.append(el("div", { class: "reason" }, quote.note));
  for (const [name, evaluation] of Object.entries(quote.evaluations || {})) {
    if (!evaluation) continue;
    const verdict = String(evaluation.verdict || "").replace(/_/g, " ");
    item.append(el("div", { class: "evaluation", "data-evaluator": name },
      el("strong", {}, name + ": "), el("span", { class: "eval-" + (evaluation.verdict || "") }, verdict),
      evaluation.explanation || evaluation.reason
        ? el("span", { class: "muted" }, " — " + (evaluation.explanation || evaluation.reason)) : null));
  }
  return item;
}

// --- wiring -----------------------------------------------------------------------------------------

function showTab(name) {
  for (const tab of ["refs", "quotes"]) {
    $("tab-" + tab).setAttribute("aria-selected", String(tab === name));
    $("panel-" + tab).hidden = tab !== name;
  }
}

$("tab-refs").addEventListener("click", () => showTab("refs"));
$("tab-quotes").addEventListener("click", () => showTab("quotes"));
$("check-form").addEventListener("submit", startCheck);
for (const control of ["show", "sort"]) $(control).addEventListener("change", applyView);
$("find").addEventListener("input", applyView);
$("quotes-form").addEventListener("submit", checkQuotes);
for (const button of $("downloads").querySelectorAll("button")) {
  button.addEventListener("click", () => download(button.dataset.format));
}
$("token-save").addEventListener("click", () => {
  sessionStorage.setItem("refhound-token", $("token").value);
  $("token-box").hidden = true;
  showHealth();
});
showHealth();
