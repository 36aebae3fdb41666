// The timeline: every step of the watched machines, newest first, filtered by machine and
// kind and searched; a click on a row travels back to it.
"use strict";

import { $, element } from "./dom.js";

const MAX_ROWS = 5000; // rows kept in memory (the server keeps as many per machine)
const SHOWN_ROWS = 600; // rows in the table

export class Timeline {
  // names(id) gives a machine's name; onPick(machineId, seq) is called for a clicked row.
  constructor(names, onPick) {
    this.names = names;
    this.onPick = onPick;
    this.rows = []; // [seq, frame, machine, category, label, state, depth, detail]
    this.frozen = false; // the view stops moving (paused, and the program cannot pause)
    this.picked = null; // seq of the row travelled to
    this.body = $("timeline-rows");
    this.body.addEventListener("click", (event) => {
      const line = event.target.closest("tr[data-seq]");
      if (line) this.onPick(line.dataset.machine, Number(line.dataset.seq));
    });
    $("timeline-machine").addEventListener("change", () => this.render());
    $("timeline-search").addEventListener("input", () => this.render());
    $("timeline-categories").addEventListener("change", () => this.render());
    $("timeline-clear").addEventListener("click", () => this.forget());
  }

  // No row any more (cleared, or the program restarted and numbers its steps anew).
  forget() {
    this.rows = [];
    this.picked = null;
    this.render();
  }

  add(rows) {
    if (!rows.length) return;
    this.rows.push(...rows);
    if (this.rows.length > MAX_ROWS) this.rows.splice(0, this.rows.length - MAX_ROWS);
    if (this.frozen) {
      this.count();
      return;
    }
    const filter = this.filter();
    // Newest first: new matching rows go on top, the table keeps SHOWN_ROWS.
    for (const row of rows) {
      if (this.matches(row, filter)) this.body.prepend(this.line(row));
    }
    while (this.body.childElementCount > SHOWN_ROWS) this.body.lastElementChild.remove();
    this.count(filter);
  }

  filter() {
    const categories = new Set(
      [...$("timeline-categories").querySelectorAll("input:checked")].map((box) => box.value),
    );
    return {
      machine: $("timeline-machine").value,
      categories,
      search: $("timeline-search").value.trim().toLowerCase(),
    };
  }

  matches(row, filter) {
    const [, , machine, category, label, stateName, , detail] = row;
    if (filter.machine && machine !== filter.machine) return false;
    if (!filter.categories.has(category)) return false;
    if (!filter.search) return true;
    const text = `${this.names(machine)} ${label} ${stateName} ${detail}`.toLowerCase();
    return text.includes(filter.search);
  }

  line(row) {
    const [seq, frame, machine, category, label, stateName, depth, detail] = row;
    const line = element("tr", `step ${category}`);
    line.dataset.seq = String(seq);
    line.dataset.machine = machine;
    if (seq === this.picked) line.classList.add("picked");
    line.title = "Click: show the machine as it was just after this step";
    const stateCell = element("td", "state", stateName);
    // Deeper states are indented, as in the book's trace lines.
    if (depth > 0) stateCell.style.paddingLeft = `${0.4 + depth}em`;
    line.append(
      element("td", "muted", String(seq)),
      element("td", "", String(frame)),
      element("td", "", this.names(machine)),
      element("td", "what", `${category} · ${label}`),
      stateCell,
      element("td", "muted", detail),
    );
    return line;
  }

  render() {
    const filter = this.filter();
    const shown = [];
    for (let index = this.rows.length - 1; index >= 0 && shown.length < SHOWN_ROWS; index -= 1) {
      if (this.matches(this.rows[index], filter)) shown.push(this.line(this.rows[index]));
    }
    this.body.replaceChildren(...shown);
    this.count(filter);
  }

  // "12 of 340 steps" when a filter hides some.
  count(filter = this.filter()) {
    const total = this.rows.length;
    const matching = this.rows.filter((row) => this.matches(row, filter)).length;
    $("timeline-count").textContent =
      matching === total ? `${total} steps` : `${matching} of ${total} steps`;
  }

  setFrozen(frozen) {
    const thawed = this.frozen && !frozen;
    this.frozen = frozen;
    if (thawed) this.render();
  }

  // The seqs of one machine's rows, oldest first (the steps time travel can reach).
  seqsOf(machine) {
    return this.rows.filter((row) => row[2] === machine).map((row) => row[0]);
  }

  // The last row of a machine matching a breakpoint hit (in the frame it was hit).
  hitRow(machine, on, target, frame) {
    for (let index = this.rows.length - 1; index >= 0; index -= 1) {
      const [seq, rowFrame, id, category, label, stateName, , detail] = this.rows[index];
      if (id !== machine || rowFrame !== frame) continue;
      const key = category === "event" ? `${label} ${detail}` : stateName;
      if (category === on && key === target) return seq;
    }
    return null;
  }

  pick(seq) {
    this.picked = seq;
    for (const line of this.body.querySelectorAll("tr.picked")) line.classList.remove("picked");
    if (seq !== null) this.body.querySelector(`tr[data-seq="${seq}"]`)?.classList.add("picked");
  }

  machineOptions(watched) {
    const select = $("timeline-machine");
    const chosen = select.value;
    const options = [element("option", "", "all watched machines")];
    options[0].value = "";
    for (const id of watched) {
      const option = element("option", "", this.names(id));
      option.value = id;
      options.push(option);
    }
    select.replaceChildren(...options);
    select.value = watched.has(chosen) ? chosen : "";
  }
}

// -- the timeline's panel: resized by dragging its top edge, collapsed to its toolbar ---------

const PANEL_KEY = "statetree.inspector.timeline"; // its size and state, kept for the next visit
const MIN_HEIGHT = 90; // pixels: the toolbar and a few rows
const KEY_STEP = 24; // pixels an arrow key resizes by

export class TimelinePanel {
  constructor() {
    this.panel = $("timeline");
    this.handle = $("timeline-resize");
    this.toggle = $("timeline-toggle");
    const kept = this.read();
    this.height = kept.height ?? null; // null: the page's default (a third of the window)
    this.collapsed = Boolean(kept.collapsed);
    this.toggle.addEventListener("click", () => this.setCollapsed(!this.collapsed));
    this.handle.addEventListener("pointerdown", (event) => this.drag(event));
    this.handle.addEventListener("dblclick", () => this.resize(null));
    this.handle.addEventListener("keydown", (event) => this.key(event));
    window.addEventListener("resize", () => this.apply());
    this.apply();
  }

  read() {
    try {
      return JSON.parse(localStorage.getItem(PANEL_KEY) || "{}") || {};
    } catch {
      return {}; // storage refused (a private window) or spoiled: the defaults
    }
  }

  save() {
    try {
      localStorage.setItem(PANEL_KEY, JSON.stringify({ height: this.height, collapsed: this.collapsed }));
    } catch {
      // Not kept for the next visit; this one still works.
    }
  }

  // The most the timeline may take: the page keeps room for its header and some cards.
  limit() {
    return Math.max(MIN_HEIGHT, window.innerHeight - 160);
  }

  apply() {
    const height = this.height === null ? null : Math.min(this.limit(), Math.max(MIN_HEIGHT, this.height));
    if (height === null) document.body.style.removeProperty("--timeline-height");
    else document.body.style.setProperty("--timeline-height", `${height}px`);
    document.body.classList.toggle("timeline-collapsed", this.collapsed);
    this.toggle.setAttribute("aria-expanded", String(!this.collapsed));
    this.toggle.textContent = this.collapsed ? "▸" : "▾";
    this.toggle.title = this.collapsed ? "Show the timeline's steps" : "Hide the timeline's steps";
    this.handle.setAttribute("aria-valuenow", String(Math.round(this.panel.offsetHeight)));
  }

  setCollapsed(collapsed) {
    this.collapsed = collapsed;
    this.apply();
    this.save();
  }

  resize(height) {
    this.height = height;
    this.collapsed = false;
    this.apply();
    this.save();
  }

  drag(event) {
    if (event.button !== 0) return;
    event.preventDefault();
    this.handle.setPointerCapture(event.pointerId);
    this.handle.classList.add("dragging");
    const move = (moved) => this.resize(window.innerHeight - moved.clientY);
    const up = () => {
      this.handle.removeEventListener("pointermove", move);
      this.handle.removeEventListener("pointerup", up);
      this.handle.classList.remove("dragging");
    };
    this.handle.addEventListener("pointermove", move);
    this.handle.addEventListener("pointerup", up);
  }

  key(event) {
    const steps = { ArrowUp: KEY_STEP, ArrowDown: -KEY_STEP, PageUp: 4 * KEY_STEP, PageDown: -4 * KEY_STEP };
    if (!(event.key in steps)) return;
    event.preventDefault();
    this.resize(this.panel.offsetHeight + steps[event.key]);
  }
}
