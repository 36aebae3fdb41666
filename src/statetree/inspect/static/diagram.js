// A machine's diagram: Graphviz's SVG (laid out by the server as `statetree plot` does),
// with zoom, pan, fit-to-card, concurrent regions drawn as boxes, states selected by a
// click and, for editable charts, transitions drawn by dragging from state to state.
"use strict";

import { element } from "./dom.js";

const SVG = "http://www.w3.org/2000/svg";
const PT = 4 / 3; // Graphviz sizes are in points; CSS pixels are 3/4 of a point
const MIN_ZOOM = 0.1;
const MAX_ZOOM = 4;
const READABLE = 0.8; // the first view is never smaller than this: text stays readable
const DRAG = 5; // pixels the pointer moves before a press becomes a drag

export class Diagram {
  // message: the server's "view" message; hooks: {onSelect(name), onConnect(from, to)},
  // connect: whether dragging between states draws a transition.
  constructor(message, hooks, connect = false) {
    this.hooks = hooks;
    this.connect = connect;
    this.items = new Map(); // state name -> element to highlight
    this.links = new Map(); // "source->target" -> edge element
    this.regions = message.regions || [];
    this.zoom = 1;
    this.fitted = true; // follows the card's size until the user zooms
    this.root = element("div", "diagram-view");
    this.root.tabIndex = 0;
    this.svg = message.svg ? this.parse(message.svg, message.states) : null;
    if (this.svg) {
      this.root.append(this.svg);
      this.wire();
    } else {
      this.root.append(this.list(message));
    }
  }

  // -- building ------------------------------------------------------------------------------

  parse(text, states) {
    const known = new Set(states);
    const parsed = new DOMParser().parseFromString(text, "image/svg+xml");
    const svg = document.importNode(parsed.documentElement, true);
    svg.classList.add("diagram");
    // Graphviz names each node and edge in its <title> ("Alive", "Alive->Dead") and gives
    // it an id ("node1") that repeats across diagrams: keep the names, drop the ids.
    for (const group of svg.querySelectorAll("g.node, g.edge")) {
      const key = group.querySelector("title")?.textContent ?? "";
      group.removeAttribute("id");
      if (group.classList.contains("node")) {
        // Only states are nodes to select: not the start marker or a hidden layout root.
        if (!known.has(key)) {
          group.classList.add("marker");
          continue;
        }
        group.dataset.state = key;
        this.items.set(key, group);
      } else {
        group.dataset.link = key;
        this.links.set(key, group);
      }
    }
    svg.removeAttribute("id");
    const box = svg.viewBox.baseVal;
    this.natural = { width: box.width * PT, height: box.height * PT };
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    return svg;
  }

  // Without Graphviz there is no layout: list the states instead.
  list(message) {
    const box = element("div", "state-list-box");
    if (message.error) box.append(element("p", "warning", message.error));
    const list = element("ul", "state-list");
    for (const name of message.states) {
      const item = element("li", "", name);
      item.dataset.state = name;
      item.addEventListener("click", () => this.hooks.onSelect(name));
      this.items.set(name, item);
      list.append(item);
    }
    box.append(list);
    return box;
  }

  // Called once the diagram is on the page (sizes and boxes need the layout).
  mount() {
    if (!this.svg) return;
    if (this.regions.length) {
      this.drawRegions();
      this.grow();
    }
    this.fit(true);
  }

  // Make room for what was drawn around Graphviz's layout (the regions' boxes).
  grow() {
    const graph = this.svg.querySelector("g.graph") || this.svg;
    const box = graph.getBBox();
    const matrix = graph.transform.baseVal.consolidate()?.matrix;
    const x = box.x + (matrix ? matrix.e : 0) - 2;
    const y = box.y + (matrix ? matrix.f : 0) - 2;
    const view = this.svg.viewBox.baseVal;
    const left = Math.min(view.x, x);
    const top = Math.min(view.y, y);
    const right = Math.max(view.x + view.width, x + box.width + 4);
    const bottom = Math.max(view.y + view.height, y + box.height + 4);
    this.svg.setAttribute("viewBox", `${left} ${top} ${right - left} ${bottom - top}`);
    this.natural = { width: (right - left) * PT, height: (bottom - top) * PT };
  }

  // Each concurrent region as a dashed box behind its states, labelled with its root.
  drawRegions() {
    const graph = this.svg.querySelector("g.graph") || this.svg;
    const anchor = graph.querySelector(":scope > g") || null;
    const sorted = [...this.regions].sort((a, b) => b.members.length - a.members.length);
    for (const region of sorted) {
      const boxes = region.members
        .map((name) => this.items.get(name))
        .filter(Boolean)
        .map((item) => item.getBBox());
      if (!boxes.length) continue;
      const pad = 7;
      const left = Math.min(...boxes.map((b) => b.x)) - pad;
      const top = Math.min(...boxes.map((b) => b.y)) - pad - 12;
      const right = Math.max(...boxes.map((b) => b.x + b.width)) + pad;
      const bottom = Math.max(...boxes.map((b) => b.y + b.height)) + pad;
      const group = document.createElementNS(SVG, "g");
      group.setAttribute("class", "region");
      group.dataset.region = region.root;
      const rect = document.createElementNS(SVG, "rect");
      for (const [key, value] of Object.entries({
        x: left, y: top, width: right - left, height: bottom - top, rx: 8,
      })) {
        rect.setAttribute(key, String(value));
      }
      const label = document.createElementNS(SVG, "text");
      label.setAttribute("x", String(left + 6));
      label.setAttribute("y", String(top + 11));
      label.textContent = `region ${region.root.split(".").pop()}`;
      group.append(rect, label);
      graph.insertBefore(group, anchor);
    }
  }

  // -- zoom and pan ----------------------------------------------------------------------------

  setZoom(zoom, anchor) {
    if (!this.svg) return;
    const view = this.root;
    const next = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, zoom));
    // Keep the point under the pointer (or the centre) where it is.
    const at = anchor || { x: view.clientWidth / 2, y: view.clientHeight / 2 };
    const contentX = (view.scrollLeft + at.x) / this.zoom;
    const contentY = (view.scrollTop + at.y) / this.zoom;
    this.zoom = next;
    this.svg.style.width = `${this.natural.width * next}px`;
    this.svg.style.height = `${this.natural.height * next}px`;
    view.scrollLeft = contentX * next - at.x;
    view.scrollTop = contentY * next - at.y;
    this.root.dataset.zoom = next.toFixed(2);
    this.hooks.onZoom?.(next);
  }

  zoomBy(factor, anchor) {
    this.fitted = false;
    this.setZoom(this.zoom * factor, anchor);
  }

  // Fit the whole diagram in the view; the first time, never below a readable size (the
  // rest is reached by panning, or by expanding the card).
  fit(first = false) {
    if (!this.svg) return;
    const width = this.root.clientWidth - 4;
    const height = this.maxHeight() - 4;
    let zoom = Math.min(width / this.natural.width, height / this.natural.height, 1);
    if (first) zoom = Math.max(zoom, Math.min(READABLE, 1));
    this.fitted = true;
    this.setZoom(zoom);
  }

  maxHeight() {
    const limit = parseFloat(getComputedStyle(this.root).maxHeight);
    return Number.isFinite(limit) ? limit : this.root.clientHeight;
  }

  // -- pointer: select, pan, connect -------------------------------------------------------------

  wire() {
    const view = this.root;
    view.addEventListener("wheel", (event) => {
      // Plain scrolling scrolls the page; with Ctrl (or a pinch) or in the expanded view
      // the wheel zooms.
      const expanded = view.closest(".card")?.classList.contains("expanded");
      if (!event.ctrlKey && !event.metaKey && !expanded) return;
      event.preventDefault();
      const rect = view.getBoundingClientRect();
      const anchor = { x: event.clientX - rect.left, y: event.clientY - rect.top };
      this.zoomBy(Math.exp(-event.deltaY * 0.002), anchor);
    }, { passive: false });
    view.addEventListener("pointerdown", (event) => this.press(event));
  }

  nodeAt(x, y) {
    const found = document.elementFromPoint(x, y)?.closest("g.node[data-state]");
    return found && this.svg.contains(found) ? found.dataset.state : null;
  }

  press(event) {
    if (event.button !== 0) return;
    const state = event.target.closest?.("g.node[data-state]")?.dataset.state ?? null;
    const start = { x: event.clientX, y: event.clientY };
    const scroll = { left: this.root.scrollLeft, top: this.root.scrollTop };
    let dragging = false;
    let line = null;
    const move = (moved) => {
      const dx = moved.clientX - start.x;
      const dy = moved.clientY - start.y;
      if (!dragging && Math.hypot(dx, dy) < DRAG) return;
      dragging = true;
      if (state && this.connect) {
        line = line || this.startLine(state);
        this.moveLine(line, moved.clientX, moved.clientY);
      } else if (!state) {
        this.root.scrollLeft = scroll.left - dx;
        this.root.scrollTop = scroll.top - dy;
      }
    };
    const up = (released) => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      this.root.classList.remove("connecting", "panning");
      line?.remove();
      if (!dragging) {
        if (state) this.hooks.onSelect(state);
        return;
      }
      const target = line ? this.nodeAt(released.clientX, released.clientY) : null;
      if (target && target !== state) this.hooks.onConnect?.(state, target);
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
    this.root.classList.add(state && this.connect ? "connecting" : "panning");
    if (!state || this.connect) event.preventDefault();
  }

  // The graph's own coordinates of a point on the screen.
  graphPoint(x, y) {
    const graph = this.svg.querySelector("g.graph") || this.svg;
    const point = new DOMPoint(x, y);
    return point.matrixTransform(graph.getScreenCTM().inverse());
  }

  startLine(state) {
    const graph = this.svg.querySelector("g.graph") || this.svg;
    const box = this.items.get(state).getBBox();
    const line = document.createElementNS(SVG, "line");
    line.setAttribute("class", "drawing");
    line.setAttribute("x1", String(box.x + box.width / 2));
    line.setAttribute("y1", String(box.y + box.height / 2));
    graph.append(line);
    return line;
  }

  moveLine(line, x, y) {
    const point = this.graphPoint(x, y);
    line.setAttribute("x2", String(point.x));
    line.setAttribute("y2", String(point.y));
  }

  // -- marks -----------------------------------------------------------------------------------

  // Only one set of classes per mark: clear it everywhere, then set it on `names`.
  mark(className, names, links = []) {
    for (const item of this.root.querySelectorAll(`.${className}`)) {
      item.classList.remove(className);
    }
    for (const name of names) this.items.get(name)?.classList.add(className);
    for (const [source, target] of links) {
      this.links.get(`${source}->${target}`)?.classList.add(className);
    }
  }
}
