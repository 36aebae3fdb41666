// Chart patterns in the editor: the patterns with their uses, and the form of a state a
// pattern wrote.
//
// A pattern the chart's file defines is edited once for every use: its states are
// addressed "@Pattern.State" and edited with the same form as any state. A state a use
// wrote shows where it comes from, the use's arguments, and buttons to edit the pattern or
// to detach the use into plain states. A pattern imported from another file is shown, not
// edited (an edit only writes the chart's own file).
"use strict";

import { numberOf } from "./controls.js";
import { button, element, input, labelled } from "./dom.js";

// The chart data with the pattern a "@Pattern..." path names as its root, named "@Pattern".
export function patternChart(chart, path) {
  const name = path.split(".")[0].slice(1);
  const body = chart.patterns?.[name];
  return body ? { root: { ...body, name: `@${name}` } } : { root: null };
}

const where = (item) => `${item.file.split("/").pop()}:${item.line}`;

// The list of patterns and their uses, under the editor's head.
export function patternList(editor) {
  const patterns = editor.source.patterns || [];
  const box = element("details", "patterns");
  box.hidden = patterns.length === 0;
  box.append(element("summary", "", `Patterns (${patterns.length})`));
  for (const pattern of patterns) {
    const item = element("div", "pattern");
    item.dataset.pattern = pattern.name;
    const head = element("div", "row");
    head.append(element("b", "", pattern.name), element("span", "muted", ` ${where(pattern)}`));
    if (pattern.editable) {
      const edit = button("Edit", () => editor.card.select(`@${pattern.name}`), "Edit the pattern: every use follows");
      edit.classList.add("edit-pattern");
      head.append(edit);
    } else {
      head.append(element("span", "muted", " (imported: edit its own file)"));
    }
    item.append(head);
    for (const use of pattern.uses) {
      const row = element("div", "row use");
      row.dataset.use = use.state;
      const open = button(use.state.split(".").pop(), () => editor.card.select(use.state), use.state);
      open.classList.add("link");
      row.append(open, element("span", "muted", ` ${where(use)}`));
      item.append(row);
    }
    box.append(item);
  }
  return box;
}

// The form of a state a use of a pattern wrote (the use's own state included).
export function usedStateForm(editor, path, from) {
  const form = element("div", "state-form from-pattern");
  form.dataset.path = path;
  const pattern = (editor.source.patterns || []).find((p) => p.name === from.pattern);
  const use = pattern?.uses.find((u) => u.state === from.use);
  const inside = path === from.use ? "" : path.slice(from.use.length + 1);
  form.append(element("p", "pattern-note",
    inside
      ? `From the pattern ${from.pattern}, used by ${from.use.split(".").pop()}.`
      : `A use of the pattern ${from.pattern}${use ? ` (${where(use)})` : ""}.`));
  const message = element("div", "field-message");
  if (!inside && use && pattern) form.append(argumentsForm(editor, path, pattern, use, message));
  const row = element("div", "row");
  if (pattern?.editable) {
    const target = inside ? `@${from.pattern}.${inside}` : `@${from.pattern}`;
    const edit = button("Edit the pattern", () => editor.card.select(target),
      `Edit ${from.pattern}: its ${pattern.uses.length} uses follow`);
    edit.classList.add("edit-pattern");
    row.append(edit);
  }
  // Only a use among the chart's own states can be detached (not one inside a pattern).
  const parent = from.use.split(".").slice(0, -1).join(".");
  if (use && !editor.source.from_pattern[parent]) {
    const detach = button("Detach this use", () =>
      editor.edit({ op: "detach-use", path: from.use }, message, from.use),
      "Write this use out as plain states, to change it alone");
    detach.classList.add("detach");
    row.append(detach);
  }
  form.append(row, message);
  return form;
}

// The use's arguments, one typed field per parameter of the pattern.
function argumentsForm(editor, path, pattern, use, message) {
  const box = element("fieldset", "section arguments");
  box.append(element("legend", "", "Arguments"));
  const params = pattern.params.length
    ? pattern.params
    : Object.keys(use.arguments).map((name) => ({ name, type: typeof use.arguments[name] }));
  const fields = new Map();
  for (const param of params) {
    const value = use.arguments[param.name];
    const boolean = param.type === "boolean";
    const field = input(boolean ? "checkbox" : "text", boolean ? undefined : value ?? "", param.name);
    if (boolean) field.checked = Boolean(value ?? param.default);
    if (!boolean && value === undefined && param.default !== null && param.default !== undefined) {
      field.placeholder = String(param.default);
    }
    field.dataset.argument = param.name;
    fields.set(param, field);
    box.append(labelled(param.name, field));
  }
  const apply = button("Apply", () => {
    const values = {};
    for (const [param, field] of fields) {
      if (param.type === "boolean") values[param.name] = field.checked;
      else if (field.value.trim() === "") continue;
      else if (param.type === "number" || param.type === "integer") values[param.name] = numberOf(field.value.trim());
      else values[param.name] = field.value;
    }
    editor.edit({ op: "set-arguments", path, arguments: values }, message);
  });
  apply.classList.add("apply", "primary");
  box.append(apply);
  return box;
}
