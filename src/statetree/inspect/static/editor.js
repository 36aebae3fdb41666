// The visual chart editor, in the card of a chart loaded from a file.
//
// Click a state in the diagram to edit it: rename it, add a child, reorder or delete it,
// change its policy, its conditions, actions and transitions (typed controls), or drag
// from one state to a sibling to draw a transition. A state is offered only the parts the
// chart loader accepts where it stands: the server says which ("parts" of each state, from
// the chart's own rule), and which policies there are ("policies", from their
// definitions); the page never decides either. Every change is checked by the server's
// chart loader as you type ("check-chart": its messages show next to the field), then
// applied with "edit-chart": the server edits the file's document (YAML comments kept),
// loads it, hot-reloads the running machine and saves the file. Undo and redo go back and
// forth through the saved edits.
"use strict";

import { actionList, asList, conditionEditor, conditionList, fromList, transitionList } from "./controls.js";
import { button, debounce, element, input, labelled, select, shortName } from "./dom.js";
import { notify } from "./notices.js";
import { patternChart, patternList, usedStateForm } from "./patterns.js";

const SECTIONS = {
  pre: ["Pre-conditions", "When its parent may choose it (all must hold)"],
  post: ["Post-conditions", "When it is done (any one suffices)"],
};
const CHECK_DELAY = 250; // ms of quiet typing before an edit is checked

// The state at a dotted path in the chart data, with its parent and its place.
function stateAt(chart, path) {
  const [first, ...rest] = path.split(".");
  let state = chart.root?.name === first ? chart.root : null;
  let parent = null;
  let where = "root";
  for (const name of rest) {
    const children = state?.states || [];
    const index = children.findIndex((child) => child.name === name);
    parent = state;
    state = index < 0 ? null : children[index];
    where = `${where}.states[${index}]`;
  }
  return { state, parent, where };
}

const parentPath = (path) => path.split(".").slice(0, -1).join(".");

const sameHistory = (a, b) => (a?.undo ?? 0) === (b?.undo ?? 0) && (a?.redo ?? 0) === (b?.redo ?? 0);

// The editor last clicked in: Ctrl+Z on the page itself (clicking a diagram's state, or an
// edit redrawing the form, leaves the focus there) goes to it.
let lastEditor = null;
document.addEventListener("keydown", (event) => {
  if (event.target === document.body && lastEditor?.card.root.isConnected) lastEditor.shortcut(event);
});

export class ChartEditor {
  constructor(card, app) {
    this.card = card;
    this.app = app;
    this.machine = card.machine.id;
    this.source = null;
    this.last = null; // the last save: {summary, diff}
    this.lists = null; // the trigger names offered while typing (a <datalist> per type)
    this.checks = new WeakMap(); // message slot -> number of its latest check
    this.box = card.part("editor");
    this.card.root.addEventListener("keydown", (event) => this.shortcut(event));
    for (const kind of ["pointerdown", "focusin"]) {
      this.card.root.addEventListener(kind, () => { lastEditor = this; });
    }
  }

  // -- the source -----------------------------------------------------------------------------

  load() {
    this.app.request({ type: "chart-source", machine: this.machine }).then(
      (message) => this.show(message),
      (error) => notify(error.message),
    );
  }

  // Draw the editor for a new source; the selected state's form is drawn again only when
  // the file changed, so a form being filled in is left alone. A source like the one shown
  // (the same text and undo history: the reply to the new view a reload brings) renews the
  // trigger names only: a button redrawn under the pointer would lose a click, and a text
  // being typed would be lost.
  show(source) {
    const changed = !this.source || this.source.text !== source.text;
    const same = !changed && sameHistory(this.source.history, source.history);
    this.source = source;
    if (same && this.lists) {
      const lists = this.datalists();
      this.lists.replaceWith(lists);
      this.lists = lists;
      return;
    }
    this.render();
    if (changed) this.card.reselect();
  }

  // Whether the chart (as the file now reads) has the state at `path`: one of its states,
  // or "@Pattern.State", a state of one of its patterns.
  has(path) {
    if (!path.startsWith("@")) return this.source.states.includes(path);
    return stateAt(patternChart(this.source.chart, path), path).state !== null;
  }

  edited(message) {
    const counts = [message.kept, message.exited, message.entered].map((paths) => paths.length);
    const what = { edit: "Saved", undo: "Undone", redo: "Redone" }[message.step] || "Saved";
    this.last = {
      summary: `${what} and reloaded: kept ${counts[0]}, exited ${counts[1]}, entered ${counts[2]}`,
      diff: message.diff,
    };
    this.show(message);
  }

  get editable() {
    return this.source && this.source.operations.length > 0;
  }

  render() {
    const source = this.source;
    const box = this.box;
    box.hidden = false;
    const head = element("div", "editor-head");
    const undo = button("Undo", () => this.edit({ op: "undo" }), "Undo the last edit (Ctrl+Z)");
    const redo = button("Redo", () => this.edit({ op: "redo" }), "Redo (Ctrl+Shift+Z)");
    undo.classList.add("undo");
    redo.classList.add("redo");
    undo.disabled = !source.history?.undo;
    redo.disabled = !source.history?.redo;
    head.dataset.undo = String(source.history?.undo ?? 0);
    head.dataset.redo = String(source.history?.redo ?? 0);
    head.append(element("h4", "", `${source.file} (${source.format})`), undo, redo);
    const hint = this.editable
      ? "Click a state to edit it; drag from a state to a sibling to draw a transition."
      : "TOML charts are edited as text (no TOML writer keeps the file).";
    const patterns = patternList(this);
    box.replaceChildren(head, element("p", "muted hint", hint), patterns, this.textEditor(), this.result());
    this.lists = this.datalists();
    box.append(this.lists);
  }

  result() {
    const box = element("div", "edit-result");
    if (this.last) {
      const diff = element("details", "diff-box");
      diff.append(element("summary", "", "Diff of the file"), element("pre", "diff", this.last.diff));
      box.append(element("p", "ok", this.last.summary), diff);
    }
    return box;
  }

  // The whole text, for any change the form does not offer (comments are kept as typed).
  textEditor() {
    const details = element("details", "text-editor");
    details.append(element("summary", "", "Edit the text"));
    const text = element("textarea", "source");
    text.value = this.source.text;
    text.rows = 16;
    text.spellcheck = false;
    text.setAttribute("aria-label", "chart text");
    const message = element("div", "field-message");
    const edit = () => ({ op: "replace-text", text: text.value });
    const check = debounce(() => this.check(edit(), message), CHECK_DELAY);
    text.addEventListener("input", check);
    const save = button("Save the text", () => this.edit(edit(), message));
    save.classList.add("primary");
    details.append(text, message, save);
    return details;
  }

  // Names of each trigger type (from the palette), offered while typing a trigger's name.
  datalists() {
    const box = element("div");
    box.hidden = true;
    const names = new Map();
    for (const trigger of this.card.view?.palette || []) {
      if (!names.has(trigger.type)) names.set(trigger.type, []);
      names.get(trigger.type).push(trigger.name);
    }
    for (const trigger of this.source.registry.triggers) {
      const list = element("datalist");
      list.id = this.listId(trigger.name);
      for (const name of names.get(trigger.name) || []) {
        const option = element("option");
        option.value = name;
        list.append(option);
      }
      box.append(list);
    }
    return box;
  }

  listId(type) {
    return `names-${this.machine}-${type}`.replace(/[^A-Za-z0-9_-]/g, "_");
  }

  context() {
    return { registry: this.source.registry, list: (type) => this.listId(type) };
  }

  // -- sending edits --------------------------------------------------------------------------

  // Apply an edit; `message` is where its error goes; `next` is the state to select after.
  edit(change, message, next) {
    if (message) message.replaceChildren(element("span", "muted", "saving…"));
    return this.app.request({ type: "edit-chart", machine: this.machine, edit: change }).then(
      () => {
        if (next !== undefined) this.card.selected = next;
        this.card.reselect();
      },
      (error) => (message ? this.problems(message, error) : notify(error.message)),
    );
  }

  // Check an edit with the loader without saving it; the latest check wins.
  check(change, message) {
    const number = (this.checks.get(message) || 0) + 1;
    this.checks.set(message, number);
    this.app.request({ type: "check-chart", machine: this.machine, edit: change }).then(
      (reply) => {
        if (this.checks.get(message) !== number) return;
        if (reply.ok) message.replaceChildren(element("span", "ok", "✓ the chart loads"));
        else this.problems(message, reply);
      },
      (error) => {
        if (this.checks.get(message) === number) this.problems(message, error);
      },
    );
  }

  // The loader's problems (or the server's error), one per line, next to the field.
  problems(message, reply) {
    const lines = reply.problems?.length
      ? reply.problems.map((problem) => `line ${problem.line}: ${problem.message}`)
      : [reply.message];
    message.replaceChildren(...lines.map((line) => element("div", "problem", line)));
  }

  shortcut(event) {
    if (!this.source || !(event.ctrlKey || event.metaKey) || event.key.toLowerCase() !== "z") return;
    if (event.target.closest("input, textarea, select")) return;
    event.preventDefault();
    this.edit({ op: event.shiftKey ? "redo" : "undo" });
  }

  // -- the selected state's form -----------------------------------------------------------------

  stateForm(path) {
    const form = element("div", "state-form");
    if (!this.source) return form;
    if (!this.editable) return form;
    const from = this.source.from_pattern?.[path];
    if (from) return usedStateForm(this, path, from);
    // "@Pattern.State" is a state of a pattern: every use of it follows its edits.
    const chart = path.startsWith("@") ? patternChart(this.source.chart, path) : this.source.chart;
    const { state, parent, where } = stateAt(chart, path);
    if (!state) return form;
    const parts = new Set(this.source.parts?.[path] || []);
    form.dataset.path = path;
    form.dataset.where = where;
    const pattern = path.startsWith("@") && !path.includes(".");
    const title = pattern
      ? element("p", "pattern-note", `The pattern ${path.slice(1)}: every use follows its edits.`)
      : this.nameRow(path);
    form.append(title, this.policyRow(path, state, parts.has("policy")));
    form.append(this.childrenRow(path, state));
    const siblings = (parent?.states || []).map((child) => child.name).filter((n) => n !== state.name);
    const context = this.context();
    for (const kind of ["pre", "post"]) {
      if (!parts.has(kind)) continue;
      const [title, hint] = SECTIONS[kind];
      const section = this.section(title, kind, asList(state[kind]),
        (value, changed) => conditionList(value, context, changed),
        (value) => ({ op: "set-conditions", path, kind, conditions: fromList(value) }));
      section.title = hint;
      form.append(section);
    }
    for (const kind of ["enter", "exit"]) {
      form.append(this.section(kind === "enter" ? "Enter actions" : "Exit actions", kind,
        state[kind] || [],
        (value, changed) => actionList(value, this.source.registry, changed),
        (value) => ({ op: "set-actions", path, kind, actions: value.length ? value : null })));
    }
    if (parts.has("transitions")) {
      form.append(this.section("Transitions", "transitions", state.transitions || [],
        (value, changed) => transitionList(value, siblings, context, changed),
        (value) => ({ op: "set-transitions", path, transitions: value.length ? value : null })));
    }
    if (parent) {
      const remove = button("Delete this state", () =>
        this.edit({ op: "remove-state", path }, null, parentPath(path)));
      remove.classList.add("danger", "delete-state");
      form.append(remove);
    }
    form.append(element("p", "muted hint placement", this.placementNote(parts, parent)));
    return form;
  }

  // What its place lets the state have (as the server says), in the chart's terms.
  placementNote(parts, parent) {
    const named = { pre: "pre-conditions", post: "post-conditions", transitions: "transitions" };
    const read = Object.keys(named).filter((part) => parts.has(part)).map((part) => named[part]);
    const may = read.length ? read.join(" and ") : "no pre- or post-conditions and no transitions";
    const policy = parent ? this.policyOf(parent) : "";
    const where = parent ? `Under ${/^[aeiou]/.test(policy) ? "an" : "a"} ${policy} parent` : "As the root";
    const others = read.length ? "; nothing would read the others" : ": nothing would read them";
    return `${where}, this state may have ${may}${others}.`;
  }

  nameRow(path) {
    const name = input("text", shortName(path), "state name");
    name.dataset.field = "name";
    const message = element("div", "field-message");
    const edit = () => ({ op: "rename-state", path, name: name.value.trim() });
    const renamed = () => `${parentPath(path) ? `${parentPath(path)}.` : ""}${name.value.trim()}`;
    name.addEventListener("input", debounce(() => {
      if (name.value.trim() && name.value.trim() !== shortName(path)) this.check(edit(), message);
      else message.replaceChildren();
    }, CHECK_DELAY));
    const apply = () => {
      if (!name.value.trim()) this.problems(message, { message: "a state needs a name" });
      else if (name.value.trim() !== shortName(path)) this.edit(edit(), message, renamed());
    };
    name.addEventListener("keydown", (event) => {
      if (event.key === "Enter") apply();
    });
    const rename = button("Rename", apply);
    rename.classList.add("rename");
    const row = element("div", "row name-row");
    row.append(labelled("Name", name), rename);
    const box = element("div");
    box.append(row, message);
    return box;
  }

  // A state's policy: the default one when it names none (the server says which).
  policyOf(state) {
    return state?.policy || this.source.policies.default;
  }

  policyRow(path, state, allowed) {
    const { choices: known, default: fallback } = this.source.policies;
    const choices = allowed
      ? [["", `(default: ${fallback})`], ...known.map((choice) => choice.name)]
      : [["", "(none: no children)"]];
    const policy = select(choices, state.policy || "", "policy");
    policy.dataset.field = "policy";
    policy.disabled = !allowed;
    for (const option of policy.options) {
      option.title = known.find((choice) => choice.name === option.value)?.summary || "";
    }
    const message = element("div", "field-message");
    policy.addEventListener("change", () => {
      this.edit({ op: "set-policy", path, policy: policy.value || null }, message);
    });
    const box = element("div");
    const row = labelled("Policy", policy);
    if (!allowed) row.title = "A policy chooses among children: add a child first";
    box.append(row, message);
    return box;
  }

  childrenRow(path, state) {
    const box = element("fieldset", "section children");
    box.append(element("legend", "", "Children"));
    const message = element("div", "field-message");
    const children = state.states || [];
    children.forEach((child, index) => {
      const row = element("div", "row child");
      row.dataset.child = child.name;
      const open = button(child.name, () => this.card.select(`${path}.${child.name}`), "Edit this state");
      open.classList.add("link");
      const up = button("↑", () => this.edit({ op: "move-state", path: `${path}.${child.name}`, index: index - 1 }, message), "Move up");
      const down = button("↓", () => this.edit({ op: "move-state", path: `${path}.${child.name}`, index: index + 1 }, message), "Move down");
      up.disabled = index === 0;
      down.disabled = index === children.length - 1;
      row.append(open, up, down);
      box.append(row);
    });
    const name = input("text", "", "new child name");
    name.placeholder = "new child";
    name.dataset.field = "add-child";
    const edit = () => ({ op: "add-state", path, name: name.value.trim() });
    name.addEventListener("input", debounce(() => {
      if (name.value.trim()) this.check(edit(), message);
      else message.replaceChildren();
    }, CHECK_DELAY));
    const add = button("Add child", () => {
      if (!name.value.trim()) this.problems(message, { message: "type the new child's name" });
      else this.edit(edit(), message, `${path}.${name.value.trim()}`);
    });
    add.classList.add("add-child");
    const row = element("div", "row");
    row.append(name, add);
    box.append(row, message);
    return box;
  }

  // A part of the state edited as a whole: typed controls, checked as they change, applied
  // with one button.
  section(title, key, initial, build, makeEdit) {
    const box = element("fieldset", `section ${key}`);
    box.dataset.section = key;
    box.append(element("legend", "", title));
    const message = element("div", "field-message");
    let draft = initial;
    const apply = button("Apply", () => this.edit(makeEdit(draft), message));
    apply.classList.add("apply", "primary");
    apply.disabled = true;
    const check = debounce(() => this.check(makeEdit(draft), message), CHECK_DELAY);
    box.append(build(initial, (value) => {
      draft = value;
      apply.disabled = false;
      check();
    }));
    box.append(message, apply);
    return box;
  }

  // -- drawing a transition ------------------------------------------------------------------------

  // A drag from one state to another: ask for the trigger, then add the transition.
  connect(from, to) {
    if (!this.editable) return;
    if (parentPath(from) !== parentPath(to)) {
      notify(
        `A transition goes to a sibling: ${shortName(to)} is not a sibling of ` +
          `${shortName(from)} (drag between two children of one state).`,
      );
      return;
    }
    if (!(this.source.parts?.[from] || []).includes("transitions")) {
      const parent = stateAt(this.source.chart, parentPath(from)).state;
      notify(
        `${shortName(parentPath(from))} does not read its children's transitions (its ` +
          `policy is ${this.policyOf(parent)}).`,
      );
      return;
    }
    this.card.select(from);
    const panel = this.card.part("selection");
    const form = element("div", "connect");
    let condition = { [this.context().registry.triggers[0]?.name || "event"]: "" };
    const message = element("div", "field-message");
    const edit = () => ({ op: "add-transition", path: from, on: condition, to: shortName(to) });
    const check = debounce(() => this.check(edit(), message), CHECK_DELAY);
    const editor = conditionEditor(condition, this.context(), (changed) => {
      condition = changed;
      check();
    });
    const add = button("Add transition", () => this.edit(edit(), message, from));
    add.classList.add("primary", "add-transition");
    const cancel = button("Cancel", () => form.remove());
    form.append(
      element("h4", "", `New transition ${shortName(from)} → ${shortName(to)}`),
      element("span", "muted", "when "),
      editor,
      message,
      add,
      cancel,
    );
    panel.prepend(form);
    form.querySelector("input")?.focus();
  }
}
