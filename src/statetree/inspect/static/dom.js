// Small DOM helpers shared by the page's modules. Text always goes through textContent:
// nothing the server sends is ever parsed as HTML.
"use strict";

export const $ = (id) => document.getElementById(id);

export function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
}

export function button(text, onClick, title) {
  const node = element("button", "", text);
  node.type = "button";
  if (title) node.title = title;
  node.addEventListener("click", onClick);
  return node;
}

// A labelled control: <label><span>text</span>control</label>.
export function labelled(text, control, className = "field") {
  const label = element("label", className);
  label.append(element("span", "field-label", text), control);
  return label;
}

export function select(options, value, ariaLabel) {
  const node = element("select");
  if (ariaLabel) node.setAttribute("aria-label", ariaLabel);
  for (const option of options) {
    const [optionValue, text] = Array.isArray(option) ? option : [option, option];
    const item = element("option", "", text);
    item.value = optionValue;
    node.append(item);
  }
  node.value = value;
  return node;
}

export function input(type, value, ariaLabel) {
  const node = element("input");
  node.type = type;
  if (value !== undefined && value !== null) node.value = value;
  if (ariaLabel) node.setAttribute("aria-label", ariaLabel);
  node.spellcheck = false;
  return node;
}

// Calls fn at most once per `wait` ms, with the arguments of the last call.
export function debounce(fn, wait) {
  let timer = null;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), wait);
  };
}

export const shortName = (name) => name.split(".").pop();
