// Typed controls for the parts of a chart state: conditions, actions and transitions,
// built from the registry's types (a dropdown of trigger and action types, a checkbox for
// a boolean parameter, number fields for numbers), never raw JSON.
//
// Each editor keeps a draft of its value in the chart file's own form (what `to_data`
// writes) and calls onChange(draft) after every change; it redraws itself only when its
// shape changes (an item added, removed or of another kind), so typing keeps the focus.
"use strict";

import { button, element, input, select } from "./dom.js";

const GROUPS = { all: "all of", any: "any of", not: "not" };

// Context of the editors of one chart: {registry, names: Map(type -> [names]), list(id)}.
// `list` is the id of a <datalist> of a trigger type's names.

// -- lists ------------------------------------------------------------------------------

// A list of items, each drawn by row(item, changed) with a remove button (and a move-up
// button when `movable`), and an add button appending blank() (unless `canAdd` is false).
// onChange gets a copy of the list after every change.
function listEditor(values, options, onChange) {
  const { className, row, blank, addLabel, what, movable = false, canAdd = true } = options;
  const copy = (item) => (item !== null && typeof item === "object" ? { ...item } : item);
  const box = element("div", className);
  const items = values.map(copy);
  const changed = () => onChange(items.map(copy));
  const draw = () => {
    const rows = items.map((item, index) => {
      const line = element("div", "row");
      line.append(...row(item, (value) => {
        items[index] = value;
        changed();
      }));
      if (movable) {
        const up = button("↑", () => {
          [items[index - 1], items[index]] = [items[index], items[index - 1]];
          draw();
          changed();
        }, `Move this ${what} up`);
        up.disabled = index === 0;
        line.append(up);
      }
      line.append(button("✕", () => {
        items.splice(index, 1);
        draw();
        changed();
      }, `Remove this ${what}`));
      return line;
    });
    const add = button(addLabel, () => {
      items.push(blank());
      draw();
      changed();
    });
    add.classList.add("add");
    add.disabled = !canAdd;
    box.replaceChildren(...rows, add);
  };
  draw();
  return box;
}

// -- conditions ---------------------------------------------------------------------------

function conditionKind(condition) {
  if (typeof condition === "string") return "event";
  return Object.keys(condition || {})[0] || "event";
}

function blankCondition(kind, context) {
  if (kind === "all" || kind === "any") return { [kind]: [blankCondition(firstTrigger(context), context)] };
  if (kind === "not") return { not: blankCondition(firstTrigger(context), context) };
  return { [kind]: "" };
}

function firstTrigger(context) {
  return context.registry.triggers[0]?.name || "event";
}

// One condition: a kind dropdown (trigger types, then all / any / not) and its name, or
// the conditions it groups.
export function conditionEditor(value, context, onChange) {
  const box = element("span", "condition-editor");
  let condition = typeof value === "string" ? { event: value } : value;
  const draw = () => {
    const kind = conditionKind(condition);
    const kinds = context.registry.triggers.map((trigger) => [trigger.name, trigger.name]);
    if (!kinds.some(([name]) => name === kind) && !(kind in GROUPS)) kinds.push([kind, kind]);
    const chooser = select([...kinds, ...Object.entries(GROUPS)], kind, "condition kind");
    chooser.classList.add("kind");
    chooser.addEventListener("change", () => {
      condition = blankCondition(chooser.value, context);
      draw();
      onChange(condition);
    });
    const parts = [chooser];
    if (kind === "all" || kind === "any") {
      parts.push(conditionList(condition[kind], context, (items) => {
        condition = { [kind]: items };
        onChange(condition);
      }, "group"));
    } else if (kind === "not") {
      parts.push(conditionEditor(condition.not, context, (inner) => {
        condition = { not: inner };
        onChange(condition);
      }));
    } else {
      const name = input("text", condition[kind], `${kind} name`);
      name.classList.add("trigger-name");
      name.placeholder = "name";
      name.setAttribute("list", context.list(kind));
      name.addEventListener("input", () => {
        condition = { [kind]: name.value };
        onChange(condition);
      });
      parts.push(name);
    }
    box.replaceChildren(...parts);
  };
  draw();
  return box;
}

// A list of conditions with add and remove buttons.
export function conditionList(values, context, onChange, className = "conditions") {
  return listEditor(values, {
    className: `condition-list ${className}`,
    row: (item, changed) => [conditionEditor(item, context, changed)],
    blank: () => blankCondition(firstTrigger(context), context),
    addLabel: "+ condition",
    what: "condition",
  }, onChange);
}

// pre / post as the file writes them: one condition, or a list.
export const asList = (value) => (value == null ? [] : Array.isArray(value) ? value : [value]);
export const fromList = (items) => (items.length === 0 ? null : items.length === 1 ? items[0] : items);

// -- actions ------------------------------------------------------------------------------

// An action as {type, params} from the file's form ("type", or {type: params or value}).
function readAction(action, registry) {
  if (typeof action === "string") return { type: action, params: {} };
  const [type, params] = Object.entries(action)[0];
  if (params !== null && typeof params === "object") return { type, params: { ...params } };
  const declared = registry.actions.find((found) => found.name === type);
  const only = declared?.params[0]?.name ?? "value";
  return { type, params: params === null ? {} : { [only]: params } };
}

function writeAction({ type, params }) {
  const kept = Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined));
  return Object.keys(kept).length ? { [type]: kept } : type;
}

// A parameter's control, typed by its declared type (or by its value's, undeclared): a
// dropdown of its choices, a checkbox, a number field (with its minimum) or a text field
// (also for a pattern's $reference).
function paramControl(param, value, onChange) {
  // Inside a pattern, a parameter's reference ($name) may stand for any value: it is text.
  const type = typeof value === "string" && value.includes("$") ? "string" : param.type;
  let control;
  if (param.choices?.length && type === param.type) {
    control = choiceControl(param, value, onChange);
  } else if (type === "boolean") {
    control = input("checkbox", undefined, param.name);
    control.checked = value ?? param.default ?? false;
    control.addEventListener("change", () => onChange(control.checked));
  } else if (type === "integer" || type === "number") {
    control = input("number", value ?? "", param.name);
    control.step = type === "integer" ? "1" : "any";
    if (param.minimum !== null && param.minimum !== undefined) control.min = String(param.minimum);
    if (param.default !== null && param.default !== undefined) control.placeholder = String(param.default);
    control.addEventListener("input", () => {
      const text = control.value.trim();
      onChange(text === "" ? undefined : numberOf(text));
    });
  } else {
    control = input("text", value ?? "", param.name);
    if (param.default !== null && param.default !== undefined) control.placeholder = String(param.default);
    control.addEventListener("input", () => onChange(control.value === "" ? undefined : control.value));
  }
  control.dataset.param = param.name;
  const label = element("label", `param ${param.default === null ? "required" : ""}`);
  label.append(element("span", "param-name", param.name), control);
  return label;
}

// A number field's value as typed: a number, or the text itself when it is none (1e999),
// so that the chart loader says what is wrong with it rather than the page changing it (a
// whole number given 1.5 is the loader's to refuse, not to round).
export function numberOf(text) {
  const value = Number(text);
  return Number.isFinite(value) ? value : text;
}

// A dropdown of a parameter's choices; its first entry leaves the parameter out (its
// default, or "choose" for a required one). A value the choices lack is listed too, so
// the loader's message about it shows instead of the value silently changing.
function choiceControl(param, value, onChange) {
  const choices = param.choices.map((choice) => [JSON.stringify(choice), String(choice)]);
  const unset = param.default === null ? "(choose)" : `(default: ${param.default})`;
  const current = value === undefined ? "" : JSON.stringify(value);
  if (value !== undefined && !choices.some(([key]) => key === current)) {
    choices.push([current, String(value)]);
  }
  const control = select([["", unset], ...choices], current, param.name);
  control.addEventListener("change", () => {
    onChange(control.value === "" ? undefined : JSON.parse(control.value));
  });
  return control;
}

function paramsOf(type, params, registry) {
  const declared = registry.actions.find((action) => action.name === type);
  if (declared) return declared.params;
  const kinds = { boolean: "boolean", number: "number" };
  return Object.entries(params).map(([name, value]) => ({
    name, type: kinds[typeof value] || "string", default: null,
  }));
}

function actionEditor(value, registry, onChange) {
  const box = element("span", "action-editor");
  let action = readAction(value, registry);
  const draw = () => {
    const types = registry.actions.map((found) => found.name);
    if (!types.includes(action.type)) types.push(action.type);
    const chooser = select(types, action.type, "action type");
    chooser.classList.add("kind");
    chooser.addEventListener("change", () => {
      action = { type: chooser.value, params: {} };
      draw();
      onChange(writeAction(action));
    });
    const params = paramsOf(action.type, action.params, registry).map((param) =>
      paramControl(param, action.params[param.name], (changed) => {
        action.params[param.name] = changed;
        onChange(writeAction(action));
      }),
    );
    box.replaceChildren(chooser, ...params);
  };
  draw();
  return box;
}

// A list of actions, in order, with add, remove and move up.
export function actionList(values, registry, onChange) {
  return listEditor(values, {
    className: "action-list",
    row: (item, changed) => [actionEditor(item, registry, changed)],
    blank: () => {
      const first = registry.actions.find((action) => !action.builtin) || registry.actions[0];
      return first ? first.name : "raise";
    },
    addLabel: "+ action",
    what: "action",
    movable: true,
  }, onChange);
}

// -- transitions --------------------------------------------------------------------------

// Explicit transitions: when a condition holds, go to a sibling.
export function transitionList(values, siblings, context, onChange) {
  return listEditor(values, {
    className: "transition-list",
    row: (item, changed) => {
      const target = select(siblings, item.to, "target state");
      target.classList.add("target");
      target.addEventListener("change", () => {
        item = { ...item, to: target.value };
        changed(item);
      });
      const condition = conditionEditor(item.on, context, (on) => {
        item = { ...item, on };
        changed(item);
      });
      return [element("span", "muted", "when"), condition, element("span", "muted", "go to"), target];
    },
    blank: () => ({ on: blankCondition(firstTrigger(context), context), to: siblings[0] || "" }),
    addLabel: "+ transition",
    what: "transition",
    canAdd: siblings.length > 0,
  }, onChange);
}
