// One watched machine's card: its diagram (or flags), the active states region by region,
// the selected state with its breakpoints (and, for charts loaded from files, the editor),
// the event palette, time travel, explanations and packets.
"use strict";

import { $, button, element, shortName } from "./dom.js";
import { Diagram } from "./diagram.js";
import { ChartEditor } from "./editor.js";
import { notify } from "./notices.js";
import { renderPacket } from "./packets.js";
import { Population } from "./population.js";

const ZOOM_STEP = 1.25;
const LAYOUTS = {
  nested: ["Statechart", "a statechart, each state's children inside it"],
  tree: ["Levels", "the HSM book's levels, each state one row below the states it can be in"],
};

// The active states as one line, each region's path in brackets after its host:
// "Lit › [Flame › Steady | Heat › Warm]".
export function crumbs(order, regions) {
  const rootsOf = new Map();
  for (const region of regions || []) {
    if (!rootsOf.has(region.host)) rootsOf.set(region.host, new Set());
    rootsOf.get(region.host).add(region.root);
  }
  let index = 0;
  const chain = (stop) => {
    const parts = [];
    while (index < order.length && !stop.has(order[index])) {
      const name = order[index];
      index += 1;
      parts.push(shortName(name));
      const roots = rootsOf.get(name);
      if (!roots || index >= order.length || !roots.has(order[index])) continue;
      const inner = new Set([...stop, ...roots]);
      const branches = [];
      while (index < order.length && roots.has(order[index])) {
        const first = shortName(order[index]);
        index += 1;
        const rest = chain(inner);
        branches.push(rest ? `${first} › ${rest}` : first);
      }
      parts.push(`[${branches.join(" | ")}]`);
    }
    return parts.join(" › ");
  };
  return chain(new Set());
}

export class Card {
  // app: {send, request, program(), rowsOf(id), travel(id, seq), live(id)}
  constructor(machine, app) {
    this.machine = machine;
    this.app = app;
    this.root = $("card-template").content.firstElementChild.cloneNode(true);
    this.root.dataset.machine = machine.id;
    this.part = (name) => this.root.querySelector(`.${name}`);
    this.part("name").textContent = machine.name;
    this.part("kind").textContent = machine.kind;
    this.diagram = null;
    this.layout = null; // the layout chosen on this card (null: the view's own)
    this.view = null; // the last view message
    this.active = { states: [], links: [], order: [] };
    this.travel = null; // the "travelled" message shown instead of the live states
    this.selected = null;
    this.breaks = [];
    this.held = new Set();
    this.editor = machine.caps.includes("edit") ? new ChartEditor(this, app) : null;
    this.root.addEventListener("animationend", () => this.root.classList.remove("flash"));
    this.wireHeader();
  }

  wireHeader() {
    const tools = this.part("tools");
    const zoom = (factor) => () => this.diagram?.zoomBy(factor);
    const layout = button("", () => this.switchLayout(), "");
    tools.append(
      layout,
      button("−", zoom(1 / ZOOM_STEP), "Zoom out (or Ctrl + wheel)"),
      button("+", zoom(ZOOM_STEP), "Zoom in (or Ctrl + wheel)"),
      button("Fit", () => this.diagram?.fit(this.shownStates()),
        "Fit the diagram in the card, as far as its labels stay readable (Expand for more room)"),
      button("Expand", () => this.toggleExpanded(), "Show this card on the whole page (Esc)"),
    );
    for (const [index, name] of ["layout", "zoom-out", "zoom-in", "fit", "expand"].entries()) {
      tools.children[index].classList.add(name);
    }
    this.part("close").addEventListener("click", () => this.app.unwatch([this.machine.id]));
  }

  toggleExpanded(force) {
    const expanded = this.root.classList.toggle("expanded", force);
    document.body.classList.toggle("has-expanded", expanded);
    this.part("expand").textContent = expanded ? "Close" : "Expand";
    requestAnimationFrame(() => this.diagram?.fit(this.shownStates()));
  }

  // Bring the card into view and make it flash (a timeline row was clicked).
  reveal() {
    this.root.scrollIntoView({ block: "nearest", inline: "nearest" });
    this.root.classList.remove("flash");
    void this.root.offsetWidth; // restart the animation
    this.root.classList.add("flash");
  }

  // The window changed size: the diagram is framed again (unless the user moved it).
  refit() {
    this.diagram?.refit(this.shownStates());
  }

  // The states shown active now (live, or at the step travelled to).
  shownStates() {
    return (this.travel ? this.travel.highlight : this.active).states;
  }

  // -- the view ------------------------------------------------------------------------------

  showView(message) {
    this.view = message;
    if (message.view === "flags") {
      this.diagram = null;
      this.part("view").replaceChildren(this.flagsTable(message.flags));
    } else {
      this.drawDiagram(message);
    }
    this.part("tools").hidden = !this.diagram;
    this.population = message.population
      ? new Population(message.states, message.population, this.diagram)
      : null;
    this.part("population").replaceChildren(...(this.population ? [this.population.root] : []));
    this.part("population").hidden = !this.population;
    this.renderPalette(message.palette || []);
    // A view drawn again (a reload) keeps the selected state if it is still there.
    if (this.selected !== null && !this.has(this.selected)) this.unselect();
    this.repaint();
    this.editor?.load();
  }

  drawDiagram(message) {
    this.setColors(message.colors);
    const hooks = {
      onSelect: (name) => this.select(name),
      onConnect: (from, to) => this.editor?.connect(from, to),
    };
    const layouts = Object.keys(message.layouts || {});
    const layout = layouts.includes(this.layout) ? this.layout : message.layout || "tree";
    this.diagram = new Diagram(message, layout, hooks, Boolean(this.editor));
    this.part("view").replaceChildren(this.diagram.root);
    this.root.classList.toggle("wide", (this.diagram.natural?.width || 0) > 560);
    this.diagram.mount();
    this.showLayoutButton(layouts);
  }

  // Draw the diagram in its other layout (statechart or the book's levels).
  switchLayout() {
    const names = Object.keys(this.view?.layouts || {});
    const other = names.find((name) => name !== this.diagram?.layout);
    if (!other) return;
    this.layout = other;
    this.drawDiagram(this.view);
    this.population?.redraw(this.diagram);
    this.repaint();
  }

  // The layout button offers the other layout, where the structure has two.
  showLayoutButton(layouts) {
    const other = layouts.find((name) => name !== this.diagram?.layout);
    const control = this.part("layout");
    control.hidden = !other;
    if (!other) return;
    const [text, title] = LAYOUTS[other];
    control.textContent = text;
    control.title = `Draw it as ${title}`;
  }

  setColors(colors) {
    if (!colors) return;
    this.root.style.setProperty("--active-fill", colors.fill);
    this.root.style.setProperty("--active-text", colors.text);
    this.root.style.setProperty("--active-line", colors.line);
  }

  knows(name) {
    return (this.view?.states || this.view?.flags?.map((flag) => flag.name) || []).includes(name);
  }

  flagsTable(flags) {
    const table = element("table", "flags");
    const head = element("tr");
    for (const title of ["bit", "state", "requires", "terminates", "blocked by", "notes"]) {
      head.append(element("th", "", title));
    }
    table.append(head);
    this.rows = new Map();
    flags.forEach((flag, index) => {
      const row = element("tr");
      row.dataset.state = flag.name;
      row.title = "Click: can this state activate now? Its breakpoints are below.";
      row.append(
        element("td", "bit", String(index)),
        element("td", "flag-name", flag.name),
        element("td", "", flag.requires.join(", ")),
        element("td", "", flag.terminates.join(", ")),
        element("td", "", flag.blocked_by.join(", ")),
        element("td", "muted", flag.tags.join(", ")),
      );
      row.addEventListener("click", () => {
        this.select(flag.name);
        this.app.send({ type: "explain", machine: this.machine.id, state: flag.name });
      });
      this.rows.set(flag.name, row);
      table.append(row);
    });
    return table;
  }

  // Put a class on the states named (flags rows or diagram nodes), and on links.
  mark(className, names, links = []) {
    if (this.diagram) {
      this.diagram.mark(className, names, links);
      return;
    }
    for (const row of this.rows?.values() || []) row.classList.remove(className);
    for (const name of names) this.rows?.get(name)?.classList.add(className);
  }

  // -- live states and time travel -------------------------------------------------------------

  setActive(highlight) {
    this.active = highlight;
    if (!this.travel) this.paint(highlight);
  }

  paint(highlight) {
    this.mark("st-active", highlight.states, highlight.links);
    this.diagram?.frame(highlight.states); // the first view, once the active states are known
    const order = highlight.order || highlight.states;
    const none = this.view?.view === "flags" ? "no flag active" : "not started";
    const line = this.view?.population
      ? `agents in ${highlight.states.length} of ${this.view.states.length} states`
      : crumbs(order, this.view?.regions) || none;
    this.part("active-states").textContent = line;
  }

  repaint() {
    this.paint(this.travel ? this.travel.highlight : this.active);
    this.mark("st-selected", this.selected ? [this.selected] : []);
    this.showBreaks();
  }

  showTravel(message) {
    this.travel = message;
    this.root.classList.add("travelling");
    const bar = this.part("travel");
    bar.hidden = false;
    const seqs = this.app.rowsOf(this.machine.id);
    const slider = element("input");
    slider.type = "range";
    slider.min = "0";
    slider.max = String(Math.max(0, seqs.length - 1));
    slider.value = String(Math.max(0, seqs.indexOf(message.seq)));
    slider.setAttribute("aria-label", "Step of this machine to show");
    slider.addEventListener("input", () => {
      this.app.travel(this.machine.id, seqs[Number(slider.value)]);
    });
    const live = button("Live", () => this.app.live(this.machine.id), "Back to the live state");
    live.classList.add("live");
    const where = element("span", "where", `step #${message.seq} · frame ${message.frame}`);
    bar.replaceChildren(element("b", "", "Time travel"), where, slider, live, this.valuesTable());
    this.repaint();
  }

  leaveTravel() {
    this.travel = null;
    this.root.classList.remove("travelling");
    this.part("travel").hidden = true;
    this.repaint();
  }

  valuesTable() {
    const values = this.travel.values;
    if (values === null) {
      const note = this.travel.pending
        ? "Reading the values of this frame…"
        : "Values are read at the end of each frame of programs that call Inspector.frame().";
      return element("p", "muted values-note", note);
    }
    const table = element("table", "values");
    let group = null;
    for (const [kind, name, text] of values) {
      if (kind !== group) {
        group = kind;
        const head = element("tr");
        head.append(element("th", "", kind), element("th"));
        table.append(head);
      }
      const row = element("tr");
      row.append(element("td", "name", name), element("td", "value", text));
      table.append(row);
    }
    if (!values.length) return element("p", "muted values-note", "No public fields.");
    return table;
  }

  // -- the selected state, breakpoints ----------------------------------------------------------

  // Whether the machine has the state `name`: as its editor's chart says, when the card
  // has one (a pattern's states included; it follows an edit before the view does), else as
  // its view says.
  has(name) {
    return this.editor?.source ? this.editor.has(name) : this.knows(name);
  }

  // The selected state again once the chart changed (an edit, an undo, a reload): the same
  // path if the chart still has it, else nothing selected.
  reselect() {
    if (this.selected === null) return;
    if (this.has(this.selected)) this.select(this.selected);
    else this.unselect();
  }

  unselect() {
    this.selected = null;
    this.mark("st-selected", []);
    const panel = this.part("selection");
    panel.replaceChildren();
    panel.hidden = true;
  }

  select(name) {
    this.selected = name;
    this.mark("st-selected", [name]);
    const panel = this.part("selection");
    panel.hidden = false;
    const title = element("h4", "", name);
    const breaks = element("div", "breakpoints");
    for (const [on, text] of [["enter", "Pause when entered"], ["exit", "Pause when exited"]]) {
      breaks.append(this.breakToggle(on, name, text));
    }
    panel.replaceChildren(title, breaks);
    if (this.editor) panel.append(this.editor.stateForm(name));
    this.showBreaks();
  }

  breakToggle(on, target, text) {
    const label = element("label", "check");
    const box = element("input");
    box.type = "checkbox";
    box.dataset.break = on;
    box.dataset.target = target;
    box.addEventListener("change", () => {
      this.app.send({
        type: "set-breakpoint", machine: this.machine.id, on, target, set: box.checked,
      });
    });
    label.append(box, ` ${text}`);
    return label;
  }

  setBreaks(list) {
    this.breaks = list;
    this.showBreaks();
  }

  showBreaks() {
    const driven = this.app.program().driven;
    const states = this.breaks.filter(([on]) => on !== "event").map(([, target]) => target);
    this.mark("st-break", states);
    const set = new Set(this.breaks.map(([on, target]) => `${on} ${target}`));
    for (const box of this.root.querySelectorAll("input[data-break]")) {
      box.checked = set.has(`${box.dataset.break} ${box.dataset.target}`);
      box.disabled = !driven;
      box.parentElement.title = driven
        ? ""
        : "Breakpoints pause the program: its loop must call Inspector.frame()";
    }
  }

  // -- events ----------------------------------------------------------------------------------

  renderPalette(triggers) {
    const box = this.part("palette");
    box.hidden = !this.machine.caps.includes("events");
    if (box.hidden) return;
    const groups = new Map();
    for (const trigger of triggers) {
      if (!groups.has(trigger.type)) groups.set(trigger.type, []);
      groups.get(trigger.type).push(trigger);
    }
    const list = element("div", "triggers");
    for (const [type, items] of groups) {
      const group = element("div", "trigger-group");
      group.append(element("span", "trigger-type", type));
      for (const trigger of items) group.append(this.triggerPill(trigger));
      list.append(group);
    }
    if (!triggers.length) list.append(element("p", "muted", "This chart responds to no event."));
    box.replaceChildren(element("h4", "", "Send events"), list);
    this.showBreaks();
  }

  triggerPill(trigger) {
    const pill = element("span", "pill");
    const key = `${trigger.type} ${trigger.name}`;
    pill.dataset.event = key;
    const press = (holding) => {
      if (holding) this.held.add(key); else this.held.delete(key);
      send.setAttribute("aria-pressed", String(holding));
    };
    const send = button(trigger.name, () => {
      const holding = !this.held.has(key);
      const mode = trigger.level ? (holding ? "hold" : "release") : "send";
      // A level's button shows at once what was asked: the program answers at its next
      // frame (after a pause, say), and a second click before then must release.
      if (trigger.level) press(holding);
      this.app.request({
        type: "send-event", machine: this.machine.id, trigger: trigger.type,
        name: trigger.name, mode,
      }).catch((error) => {
        if (trigger.level && this.held.has(key) === holding) press(!holding);
        notify(error.message);
      });
    }, trigger.level ? `Hold or release ${key}` : `Send ${key}`);
    send.classList.add("send");
    if (trigger.level) send.setAttribute("aria-pressed", String(this.held.has(key)));
    pill.append(send, this.breakToggle("event", key, "‖"));
    pill.lastChild.title = `Pause when ${key} arrives`;
    return pill;
  }

  addSamples(samples) {
    this.population?.add(samples);
  }

  // -- explanations and packets ------------------------------------------------------------------

  showExplained(message) {
    const box = this.part("explain");
    box.hidden = false;
    box.className = `explain ${message.possible ? "ok" : "bad"}`;
    box.replaceChildren(element("p", "", message.text));
  }

  showPacket(packet) {
    const box = this.part("packet");
    box.hidden = false;
    box.replaceChildren(renderPacket(packet));
  }
}
