// A machine's diagram: Graphviz's SVG (laid out by the server as `statetree plot` does),
// as a statechart (each state's children inside it) or in the HSM book's levels, with
// zoom (Ctrl + wheel, or the card's buttons), pan (drag the background), a first view
// framed on the active states at a readable size, concurrent regions drawn as boxes, states
// selected by a click and, for editable charts, transitions drawn by dragging from state to
// state.
"use strict";

import { element } from "./dom.js";

const SVG = "http://www.w3.org/2000/svg";
const PT = 4 / 3; // Graphviz sizes are in points; CSS pixels are 3/4 of a point
const MIN_ZOOM = 0.1;
const MAX_ZOOM = 4;
const READABLE = 0.75; // labels of 12 points stay 12 pixels high: the first view and Fit stop here
const EXPANDED_ZOOM = 1.5; // the largest zoom Fit gives an expanded card
const DRAG = 5; // pixels the pointer moves before a press becomes a drag
const MARGIN = 24; // pixels kept around what is framed
const VIEW_SHARE = 0.6; // the most of the window's height a card's diagram takes
const MIN_VIEW = 160; // pixels: the least height of a card's diagram, in the smallest window

// The state or transition a Graphviz group draws: its id ("state:NAME", "link:A->B") in
// the nested layout, its title ("NAME", "A->B", "cluster_X") in the book's.
function keyOf(group) {
  const id = group.getAttribute("id") || "";
  if (id.startsWith("state:") || id.startsWith("link:")) return id.slice(id.indexOf(":") + 1);
  return group.querySelector(":scope > title")?.textContent ?? "";
}

export class Diagram {
  // message: the server's "view" message; layout: which of its layouts to draw; hooks:
  // {onSelect(name), onConnect(from, to)}; connect: whether dragging between states draws
  // a transition.
  constructor(message, layout, hooks, connect = false) {
    this.hooks = hooks;
    this.connect = connect;
    this.layout = layout;
    this.items = new Map(); // state name -> element to highlight
    this.links = new Map(); // "source->target" -> edge element
    this.regions = layout === "tree" ? message.regions || [] : []; // nested: boxes already
    this.zoom = 1;
    this.touched = false; // the user zoomed or panned: the view is theirs
    this.framed = false; // the first view was framed on the active states
    this.root = element("div", "diagram-view");
    this.root.tabIndex = 0;
    const text = message.layouts?.[layout] ?? message.svg;
    this.svg = text ? this.parse(text, message.states) : null;
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
    svg.classList.add("diagram", `layout-${this.layout}`);
    // Graphviz's ids ("node1", "clust2") repeat across diagrams: keep the names, drop them.
    for (const group of svg.querySelectorAll("g.node, g.edge, g.cluster")) {
      const key = keyOf(group);
      group.removeAttribute("id");
      if (group.classList.contains("edge")) {
        group.dataset.link = key;
        this.links.set(key, group);
      } else if (known.has(key)) {
        group.dataset.state = key;
        this.items.set(key, group);
      } else if (group.classList.contains("node")) {
        group.classList.add("marker"); // a start dot, a choice, a hidden layout root
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
    this.setZoom(this.fitZoom());
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

  // Each concurrent region as a dashed box behind its states, labelled with its root (the
  // book's layout; the nested one draws regions itself).
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
  }

  zoomBy(factor, anchor) {
    this.touched = true;
    this.setZoom(this.zoom * factor, anchor);
  }

  // The room the diagram has: the view's width, and its height (or the most it may grow to).
  // In a card, the view grows no taller than what the cards' area shows below the card's
  // own lines (the timeline takes the rest of the window), so a framed diagram is seen whole.
  room() {
    const card = this.root.closest(".card");
    const cards = this.root.closest("#cards");
    if (card && cards && !card.classList.contains("expanded")) {
      const above = this.root.getBoundingClientRect().top - card.getBoundingClientRect().top;
      const padding = parseFloat(getComputedStyle(cards).paddingTop) * 2;
      const shown = cards.clientHeight - above - padding;
      const height = Math.max(MIN_VIEW, Math.min(VIEW_SHARE * window.innerHeight, shown));
      this.root.style.maxHeight = `${height}px`;
      return { width: this.root.clientWidth - 4, height: height - 4 };
    }
    this.root.style.removeProperty("max-height"); // expanded: the stylesheet's own size
    const limit = parseFloat(getComputedStyle(this.root).maxHeight);
    const height = Number.isFinite(limit) ? limit : this.root.clientHeight;
    return { width: this.root.clientWidth - 4, height: height - 4 };
  }

  // The zoom that shows the whole diagram, never below a readable size (a larger diagram
  // is then panned, or its card expanded), and at most its natural size in a card (a bit
  // more on the whole page, which it then fills).
  fitZoom() {
    const room = this.room();
    const largest = this.root.closest(".expanded") ? EXPANDED_ZOOM : 1;
    const whole = Math.min(room.width / this.natural.width, room.height / this.natural.height);
    return Math.max(Math.min(whole, largest), READABLE);
  }

  // Fit the diagram in the view (as far as its labels stay readable), centred on the active
  // states when it does not fit whole.
  fit(active = []) {
    if (!this.svg) return;
    this.touched = false;
    this.setZoom(this.fitZoom());
    this.centre(active);
  }

  // The window changed size: framed again, unless the user zoomed or moved the view (a
  // machine not started yet, which has no active state to frame on, too).
  refit(active) {
    if (!this.svg || this.touched) return;
    this.setZoom(this.fitZoom());
    this.centre(active);
  }

  // The first view: readable, framed on the active states; later calls do nothing once the
  // user has moved the view.
  frame(active) {
    if (!this.svg || this.framed || this.touched || !active.length) return;
    this.framed = true;
    this.setZoom(this.fitZoom());
    this.centre(active);
  }

  // Scroll so that the innermost active states are in the middle of the view.
  centre(active) {
    const box = this.boxOf(active);
    if (!box) return;
    const view = this.root;
    view.scrollLeft = box.x + box.width / 2 - view.clientWidth / 2;
    view.scrollTop = box.y + box.height / 2 - view.clientHeight / 2;
  }

  // The pixel box (in the view's scrolled content) of the states to frame: the active
  // states drawn as plain nodes (the innermost; boxes of the nested layout hold them), the
  // deepest alone when they do not all fit.
  boxOf(names) {
    const items = names.map((name) => this.items.get(name)).filter(Boolean);
    const nodes = items.filter((item) => item.classList.contains("node"));
    const chosen = nodes.length ? nodes : items;
    if (!chosen.length) return null;
    const boxes = chosen.map((item) => this.pixelBox(item));
    const union = boxes.reduce((a, b) => {
      const x = Math.min(a.x, b.x);
      const y = Math.min(a.y, b.y);
      const right = Math.max(a.x + a.width, b.x + b.width);
      const bottom = Math.max(a.y + a.height, b.y + b.height);
      return { x, y, width: right - x, height: bottom - y };
    });
    const fits = union.width + 2 * MARGIN <= this.root.clientWidth
      && union.height + 2 * MARGIN <= this.root.clientHeight;
    return fits ? union : boxes[boxes.length - 1];
  }

  pixelBox(item) {
    const own = item.getBoundingClientRect();
    const view = this.root.getBoundingClientRect();
    return {
      x: own.left - view.left + this.root.scrollLeft,
      y: own.top - view.top + this.root.scrollTop,
      width: own.width,
      height: own.height,
    };
  }

  // -- pointer: select, pan, connect -------------------------------------------------------------

  wire() {
    const view = this.root;
    view.addEventListener("wheel", (event) => {
      // The wheel scrolls; with Ctrl (or Cmd, or a trackpad's pinch) it zooms.
      if (!event.ctrlKey && !event.metaKey) return;
      event.preventDefault();
      const rect = view.getBoundingClientRect();
      const anchor = { x: event.clientX - rect.left, y: event.clientY - rect.top };
      this.zoomBy(Math.exp(-event.deltaY * 0.002), anchor);
    }, { passive: false });
    view.addEventListener("pointerdown", (event) => this.press(event));
  }

  // The state a press or a drop is on: a plain state, or a state's box by its name. A
  // press on a box's background is on the box only for a click (a drag there pans).
  stateAt(target) {
    const node = target.closest?.("g.node[data-state]");
    if (node && this.svg.contains(node)) return { name: node.dataset.state, handle: true };
    const box = target.closest?.("g.cluster[data-state]");
    if (!box || !this.svg.contains(box)) return null;
    return { name: box.dataset.state, handle: target.tagName === "text" };
  }

  nodeAt(x, y) {
    const found = document.elementFromPoint(x, y);
    return found ? this.stateAt(found)?.name ?? null : null;
  }

  press(event) {
    if (event.button !== 0) return;
    const on = this.stateAt(event.target);
    const draws = Boolean(on?.handle && this.connect);
    const start = { x: event.clientX, y: event.clientY };
    const scroll = { left: this.root.scrollLeft, top: this.root.scrollTop };
    let dragging = false;
    let line = null;
    const move = (moved) => {
      const dx = moved.clientX - start.x;
      const dy = moved.clientY - start.y;
      if (!dragging && Math.hypot(dx, dy) < DRAG) return;
      dragging = true;
      if (draws) {
        line = line || this.startLine(on.name);
        this.moveLine(line, moved.clientX, moved.clientY);
      } else if (!on?.handle) {
        this.touched = true;
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
        if (on) this.hooks.onSelect(on.name);
        return;
      }
      const target = line ? this.nodeAt(released.clientX, released.clientY) : null;
      if (target && target !== on.name) this.hooks.onConnect?.(on.name, target);
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
    this.root.classList.add(draws ? "connecting" : "panning");
    if (!on?.handle || this.connect) event.preventDefault();
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
