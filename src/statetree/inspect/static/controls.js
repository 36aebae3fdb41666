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
  const box = element("div", `condition-list ${className}`);
  const items = [...values];
  const draw = () => {
    const rows = items.map((item, index) => {
      const row = element("div", "row");
      row.append(
        conditionEditor(item, context, (changed) => {
          items[index] = changed;
          onChange([...items]);
        }),
        button("✕", () => {
          items.splice(index, 1);
          draw();
          onChange([...items]);
        }, "Remove this condition"),
      );
      return row;
    });
    const add = button("+ condition", () => {
      items.push(blankCondition(firstTrigger(context), context));
      draw();
      onChange([...items]);
    });
    add.classList.add("add");
    box.replaceChildren(...rows, add);
  };
  draw();
  return box;
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

// A parameter's control, typed by its declared type (or by its value's, undeclared).
function paramControl(param, value, onChange) {
  const type = param.type;
  let control;
  if (type === "boolean") {
    control = input("checkbox", undefined, param.name);
    control.checked = value ?? param.default ?? false;
    control.addEventListener("change", () => onChange(control.checked));
  } else if (type === "integer" || type === "number") {
    control = input("number", value ?? "", param.name);
    control.step = type === "integer" ? "1" : "any";
    if (param.default !== null && param.default !== undefined) control.placeholder = String(param.default);
    control.addEventListener("input", () => {
      const text = control.value.trim();
      onChange(text === "" ? undefined : type === "integer" ? Number.parseInt(text, 10) : Number(text));
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
  const box = element("div", "action-list");
  const items = [...values];
  const draw = () => {
    const rows = items.map((item, index) => {
      const row = element("div", "row");
      const up = button("↑", () => {
        [items[index - 1], items[index]] = [items[index], items[index - 1]];
        draw();
        onChange([...items]);
      }, "Run this action earlier");
      up.disabled = index === 0;
      row.append(
        actionEditor(item, registry, (changed) => {
          items[index] = changed;
          onChange([...items]);
        }),
        up,
        button("✕", () => {
          items.splice(index, 1);
          draw();
          onChange([...items]);
        }, "Remove this action"),
      );
      return row;
    });
    const add = button("+ action", () => {
      const first = registry.actions.find((action) => !action.builtin) || registry.actions[0];
      items.push(first ? first.name : "raise");
      draw();
      onChange([...items]);
    });
    add.classList.add("add");
    box.replaceChildren(...rows, add);
  };
  draw();
  return box;
}

// -- transitions --------------------------------------------------------------------------

// Explicit transitions: when a condition holds, go to a sibling.
export function transitionList(values, siblings, context, onChange) {
  const box = element("div", "transition-list");
  const items = values.map((item) => ({ ...item }));
  const draw = () => {
    const rows = items.map((item, index) => {
      const row = element("div", "row");
      const target = select(siblings, item.to, "target state");
      target.classList.add("target");
      target.addEventListener("change", () => {
        items[index] = { ...items[index], to: target.value };
        onChange(items.map((found) => ({ ...found })));
      });
      row.append(
        element("span", "muted", "when"),
        conditionEditor(item.on, context, (changed) => {
          items[index] = { ...items[index], on: changed };
          onChange(items.map((found) => ({ ...found })));
        }),
        element("span", "muted", "go to"),
        target,
        button("✕", () => {
          items.splice(index, 1);
          draw();
          onChange(items.map((found) => ({ ...found })));
        }, "Remove this transition"),
      );
      return row;
    });
    const add = button("+ transition", () => {
      items.push({ on: blankCondition(firstTrigger(context), context), to: siblings[0] || "" });
      draw();
      onChange(items.map((found) => ({ ...found })));
    });
    add.classList.add("add");
    add.disabled = !siblings.length;
    box.replaceChildren(...rows, add);
  };
  draw();
  return box;
}
