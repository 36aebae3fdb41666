// The chart editor of the inspector page: shown in the card of a chart loaded from a file.
//
// Every change is sent as one "edit-chart" command. The server applies it to the file's
// document, loads the result with the chart loader (a bad edit comes back as the loader's
// error, naming the file and line), hot-reloads the running machine and saves the file;
// the reply carries the diff and the new source, and the editor is drawn again from it.
"use strict";

(() => {
  const POLICIES = ["explicit", "sequential", "priority", "concurrent"];

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function button(text, onClick) {
    const node = element("button", "", text);
    node.type = "button";
    node.addEventListener("click", onClick);
    return node;
  }

  // The data of the state at a dotted path, in the chart data the server sent.
  function stateAt(chart, path) {
    const [first, ...rest] = path.split(".");
    let state = chart.root.name === first ? chart.root : null;
    for (const name of rest) {
      state = (state?.states || []).find((child) => child.name === name) || null;
    }
    return state;
  }

  // A row: a label, an input holding JSON (or text) and an Apply button.
  function field(label, value, onApply, json = true) {
    const row = element("div", "edit-row");
    const input = element("input");
    input.value = json ? JSON.stringify(value ?? null) : value;
    input.setAttribute("aria-label", label);
    input.dataset.field = label;
    const apply = button("Apply", () => {
      let parsed = input.value;
      if (json) {
        try {
          parsed = JSON.parse(input.value);
        } catch (error) {
          row.querySelector(".edit-note")?.remove();
          row.append(element("span", "edit-note warning", `not JSON: ${error.message}`));
          return;
        }
      }
      onApply(parsed);
    });
    row.append(element("label", "", label), input, apply);
    return row;
  }

  function stateForm(machine, source, path, edit) {
    const state = stateAt(source.chart, path) || {};
    const form = element("div", "state-form");
    const rename = (name) => edit({ op: "rename-state", path, name });
    const add = (name) => edit({ op: "add-state", path, name });
    form.append(field("rename to", state.name || "", rename, false));
    form.append(field("add child", "", add, false));
    const policy = element("select");
    policy.setAttribute("aria-label", "policy");
    for (const name of ["", ...POLICIES]) {
      const option = element("option", "", name || "(none)");
      option.value = name;
      policy.append(option);
    }
    policy.value = state.policy || "";
    policy.addEventListener("change", () => {
      if (policy.value) edit({ op: "set-policy", path, policy: policy.value });
    });
    const policyRow = element("div", "edit-row");
    policyRow.append(element("label", "", "policy"), policy);
    form.append(policyRow);
    for (const kind of ["pre", "post"]) {
      const apply = (conditions) => edit({ op: "set-conditions", path, kind, conditions });
      form.append(field(kind, state[kind], apply));
    }
    for (const kind of ["enter", "exit"]) {
      const apply = (actions) => edit({ op: "set-actions", path, kind, actions });
      form.append(field(kind, state[kind], apply));
    }
    const transitions = (list) => edit({ op: "set-transitions", path, transitions: list });
    form.append(field("transitions", state.transitions, transitions));
    form.append(button("Remove this state", () => edit({ op: "remove-state", path })));
    return form;
  }

  function render(machine, source, send) {
    const box = element("div", "chart-editor");
    const edit = (change) => send({ type: "edit-chart", machine, edit: change });
    box.append(element("h4", "", `Edit ${source.file} (${source.format})`));
    if (source.operations.length) {
      const chooser = element("select", "state-chooser");
      chooser.setAttribute("aria-label", "state to edit");
      for (const path of source.states) {
        const option = element("option", "", path);
        option.value = path;
        chooser.append(option);
      }
      const holder = element("div");
      const show = () => holder.replaceChildren(stateForm(machine, source, chooser.value, edit));
      chooser.addEventListener("change", show);
      box.append(chooser, holder);
      show();
    }
    // The whole text, for any change the form does not offer (comments are kept as typed).
    const details = element("details");
    details.append(element("summary", "", "Edit the text"));
    const text = element("textarea", "source");
    text.value = source.text;
    text.rows = 14;
    text.spellcheck = false;
    const save = button("Save the text", () => edit({ op: "replace-text", text: text.value }));
    details.append(text, save);
    box.append(details, element("div", "edit-result"));
    return box;
  }

  function edited(box, message) {
    // Called before the editor is drawn again: keep the result to show it afterwards.
    const counts = [message.kept, message.exited, message.entered].map((paths) => paths.length);
    box.dataset.summary =
      `saved and reloaded: kept ${counts[0]}, exited ${counts[1]}, entered ${counts[2]}`;
    box.dataset.diff = message.diff;
  }

  // Drawn again after an edit: show the diff of the last save under the form.
  function showLast(box) {
    const result = box.querySelector(".edit-result");
    if (!result || !box.dataset.summary) return;
    const diff = element("pre", "diff", box.dataset.diff);
    result.replaceChildren(element("p", "ok", box.dataset.summary), diff);
  }

  window.chartEditor = { render, edited, showLast };
})();
