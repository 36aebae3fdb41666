// The population view of a chart batch: how many agents are in each state, written on the
// diagram's states, and those numbers over time as a line chart with axes (one line per
// leaf state; click a name to hide or show its line). The vertical scale is logarithmic by
// default, so that a state holding a few agents shows beside one holding thousands.
"use strict";

import { button, element, shortName } from "./dom.js";

const SVG = "http://www.w3.org/2000/svg";
const KEEP = 600; // samples drawn (the server keeps as many)
const HEIGHT = 170; // pixels of the chart, axes included, until its style says otherwise
const PAD = { left: 52, right: 12, top: 10, bottom: 30 };
const COLORS = ["#1f6feb", "#d1242f", "#1a7f37", "#9a6700", "#8250df", "#bf3989", "#0a7e8c",
  "#6e7781", "#fb8500", "#2da44e", "#cf222e", "#54aeff"];

function svg(tag, attributes, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

// About `count` round values from 0 to `top` (1, 2 or 5 times a power of ten apart).
export function linearTicks(top, count = 4) {
  const raw = Math.max(top, 1) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw);
  const ticks = [];
  for (let value = 0; value <= top + 1e-9; value += step) ticks.push(Math.round(value));
  return ticks;
}

// 0 and the powers of ten up to `top`.
export function logTicks(top) {
  const ticks = [0];
  for (let value = 1; value <= Math.max(top, 1); value *= 10) ticks.push(value);
  return ticks;
}

export class Population {
  // names: the states in the order of each sample's counts; diagram: the card's Diagram.
  constructor(names, samples, diagram) {
    this.names = names;
    this.diagram = diagram;
    this.samples = [];
    this.hidden = new Set();
    this.log = true;
    // Leaves: states no other state is inside (their counts add up to the population).
    this.leaves = names.filter((name) => !names.some((other) => other.startsWith(`${name}.`)));
    this.root = element("div", "population");
    const head = element("div", "population-head");
    this.total = element("p", "population-total");
    this.scale = button("Log scale", () => {
      this.log = !this.log;
      this.draw();
    }, "Vertical scale: logarithmic (every state shows) or linear");
    this.scale.classList.add("scale");
    head.append(this.total, this.scale);
    this.chart = svg("svg", { class: "population-chart", role: "img" });
    this.chart.setAttribute("aria-label", "Agents in each state over the frames");
    this.legend = element("div", "population-legend");
    this.root.append(head, this.chart, this.legend);
    // The chart is drawn in pixels (text keeps its size): again when its size changes.
    this.size = "";
    new ResizeObserver(() => {
      if (`${this.chart.clientWidth}x${this.chart.clientHeight}` !== this.size) this.draw();
    }).observe(this.chart);
    this.add(samples);
  }

  // New samples ([frame, ...counts]); those already drawn are skipped.
  add(samples) {
    const last = this.samples.length ? this.samples[this.samples.length - 1][0] : -Infinity;
    const fresh = samples.filter((sample) => sample[0] > last);
    if (!fresh.length && this.samples.length) return;
    this.samples.push(...fresh);
    if (this.samples.length > KEEP) this.samples.splice(0, this.samples.length - KEEP);
    this.draw();
  }

  // The card drew its diagram anew (another layout): put the counts on it.
  redraw(diagram) {
    this.diagram = diagram;
    this.layer = null;
    this.draw();
  }

  latest() {
    const sample = this.samples[this.samples.length - 1];
    return new Map(this.names.map((name, index) => [name, sample ? sample[index + 1] : 0]));
  }

  draw() {
    const counts = this.latest();
    const population = counts.get(this.names[0]) ?? 0;
    const frame = this.samples.length ? this.samples[this.samples.length - 1][0] : 0;
    this.total.textContent = `${population.toLocaleString("en")} agents · frame ${frame} of watching`;
    this.scale.setAttribute("aria-pressed", String(this.log));
    this.badges(counts);
    this.lines();
    this.drawLegend(counts);
  }

  // The number of agents in each state, written above its node, over everything else
  // (edges pass by), on a backing that keeps it readable.
  badges(counts) {
    const graph = this.diagram?.svg?.querySelector("g.graph");
    if (!graph) return;
    if (!this.layer || !graph.contains(this.layer)) {
      this.layer = svg("g", { class: "counts" });
      graph.append(this.layer);
    }
    for (const [name, count] of counts) {
      const node = this.diagram.items.get(name);
      if (!node) continue;
      const label = this.badge(name, node);
      label.lastChild.textContent = count.toLocaleString("en");
      const text = label.lastChild.getBBox();
      for (const [key, value] of Object.entries({
        x: text.x - 2, y: text.y - 1, width: text.width + 4, height: text.height + 2,
      })) {
        label.firstChild.setAttribute(key, String(value));
      }
      node.dataset.count = String(count);
    }
  }

  badge(name, node) {
    const found = [...this.layer.children].find((item) => item.dataset.state === name);
    if (found) return found;
    const box = node.getBBox();
    const label = svg("g", { class: "count" });
    label.dataset.state = name;
    // Above a plain state's top right corner; inside a box's (its name is at its left).
    const inside = node.classList.contains("cluster");
    const text = svg("text", { x: box.x + box.width - 6, y: inside ? box.y + 14 : box.y - 4 });
    text.setAttribute("text-anchor", "end");
    label.append(svg("rect", { rx: 3 }), text);
    this.layer.append(label);
    return label;
  }

  // The scales: frames across, agents up (log: log10(1 + n), so 0 stays at the bottom).
  scales() {
    const width = this.chart.clientWidth || 600;
    const height = this.chart.clientHeight || HEIGHT;
    this.size = `${this.chart.clientWidth}x${this.chart.clientHeight}`;
    const first = this.samples[0]?.[0] ?? 0;
    const lastFrame = this.samples[this.samples.length - 1]?.[0] ?? 0;
    const span = Math.max(1, lastFrame - first);
    const columns = this.leaves.filter((name) => !this.hidden.has(name)).map((name) => this.names.indexOf(name) + 1);
    const top = Math.max(1, ...this.samples.flatMap((s) => columns.map((c) => s[c])));
    const ticks = this.log ? logTicks(top) : linearTicks(top);
    const ceiling = Math.max(top, ticks[ticks.length - 1]);
    const lift = this.log ? (n) => Math.log10(1 + n) / Math.log10(1 + ceiling) : (n) => n / ceiling;
    const inner = { width: width - PAD.left - PAD.right, height: height - PAD.top - PAD.bottom };
    return {
      width, height, first, span, ticks,
      x: (frame) => PAD.left + ((frame - first) / span) * inner.width,
      y: (count) => PAD.top + inner.height - lift(count) * inner.height,
    };
  }

  lines() {
    const scale = this.scales();
    this.chart.setAttribute("viewBox", `0 0 ${scale.width} ${scale.height}`);
    const parts = [...this.axes(scale)];
    this.leaves.forEach((name, number) => {
      if (this.hidden.has(name)) return;
      const index = this.names.indexOf(name) + 1;
      const points = this.samples.map(
        (sample) => `${scale.x(sample[0]).toFixed(1)},${scale.y(sample[index]).toFixed(1)}`,
      );
      const line = svg("polyline", { points: points.join(" "), stroke: COLORS[number % COLORS.length] });
      line.dataset.state = name;
      parts.push(line);
    });
    this.chart.replaceChildren(...parts);
  }

  // The axes: agents on the left (gridlines at each tick), frames along the bottom.
  *axes(scale) {
    const bottom = scale.height - PAD.bottom;
    const right = scale.width - PAD.right;
    const axis = svg("g", { class: "axis y" });
    for (const tick of scale.ticks) {
      const y = scale.y(tick);
      axis.append(
        svg("line", { x1: PAD.left, y1: y, x2: right, y2: y, class: tick ? "grid" : "base" }),
        svg("text", { x: PAD.left - 6, y: y + 4, "text-anchor": "end" }, tick.toLocaleString("en")),
      );
    }
    axis.append(svg("text", {
      class: "title", x: 12, y: PAD.top + (bottom - PAD.top) / 2, "text-anchor": "middle",
      transform: `rotate(-90 12 ${PAD.top + (bottom - PAD.top) / 2})`,
    }, "agents"));
    yield axis;
    const frames = svg("g", { class: "axis x" });
    const last = scale.first + scale.span;
    for (const tick of linearTicks(scale.span, 5).map((t) => t + scale.first)) {
      if (tick > last) break;
      const x = scale.x(tick);
      frames.append(
        svg("line", { x1: x, y1: bottom, x2: x, y2: bottom + 4, class: "base" }),
        svg("text", { x, y: bottom + 15, "text-anchor": "middle" }, tick.toLocaleString("en")),
      );
    }
    frames.append(svg("text", {
      class: "title", x: right, y: scale.height - 2, "text-anchor": "end",
    }, "frame (since watching)"));
    yield frames;
  }

  // The legend is made once and only its numbers change: a button redrawn under the
  // pointer, many times a second, would lose the clicks on it.
  drawLegend(counts) {
    if (!this.legend.childElementCount) {
      this.legend.append(...this.leaves.map((name, number) => this.legendItem(name, number)));
    }
    for (const item of this.legend.children) {
      const name = item.dataset.state;
      item.setAttribute("aria-pressed", String(!this.hidden.has(name)));
      item.lastChild.textContent = `${shortName(name)} ${counts.get(name).toLocaleString("en")}`;
    }
  }

  legendItem(name, number) {
    const item = element("button", "legend-item");
    item.type = "button";
    item.dataset.state = name;
    item.title = `${name}: click to hide or show its line`;
    const swatch = element("span", "swatch");
    swatch.style.background = COLORS[number % COLORS.length];
    item.append(swatch, element("span"));
    item.addEventListener("click", () => {
      if (this.hidden.has(name)) this.hidden.delete(name);
      else this.hidden.add(name);
      this.draw();
    });
    return item;
  }
}
