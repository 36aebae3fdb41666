// The population view of a chart batch: how many agents are in each state, written on the
// diagram's states, and those numbers over time as a line chart (one line per leaf state;
// click a name to hide or show its line).
"use strict";

import { element, shortName } from "./dom.js";

const SVG = "http://www.w3.org/2000/svg";
const KEEP = 600; // samples drawn (the server keeps as many)
const WIDTH = 600;
const HEIGHT = 150;
const COLORS = ["#1f6feb", "#d1242f", "#1a7f37", "#9a6700", "#8250df", "#bf3989", "#0a7e8c",
  "#6e7781", "#fb8500", "#2da44e", "#cf222e", "#54aeff"];

function svg(tag, attributes) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  return node;
}

export class Population {
  // names: the states in the order of each sample's counts; diagram: the card's Diagram.
  constructor(names, samples, diagram) {
    this.names = names;
    this.diagram = diagram;
    this.samples = [];
    this.hidden = new Set();
    // Leaves: states no other state is inside (their counts add up to the population).
    this.leaves = names.filter((name) => !names.some((other) => other.startsWith(`${name}.`)));
    this.root = element("div", "population");
    this.total = element("p", "population-total");
    this.chart = svg("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: "population-chart" });
    this.chart.setAttribute("preserveAspectRatio", "none");
    this.legend = element("div", "population-legend");
    this.root.append(this.total, this.chart, this.legend);
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

  latest() {
    const sample = this.samples[this.samples.length - 1];
    return new Map(this.names.map((name, index) => [name, sample ? sample[index + 1] : 0]));
  }

  draw() {
    const counts = this.latest();
    const population = counts.get(this.names[0]) ?? 0;
    const frame = this.samples.length ? this.samples[this.samples.length - 1][0] : 0;
    this.total.textContent = `${population.toLocaleString("en")} agents · frame ${frame} of watching`;
    this.badges(counts);
    this.lines(population);
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
    const text = svg("text", { x: box.x + box.width - 3, y: box.y - 4 });
    text.setAttribute("text-anchor", "end");
    label.append(svg("rect", { rx: 3 }), text);
    this.layer.append(label);
    return label;
  }

  lines(population) {
    const first = this.samples[0]?.[0] ?? 0;
    const span = Math.max(1, (this.samples[this.samples.length - 1]?.[0] ?? 0) - first);
    const top = Math.max(1, population, ...this.samples.map((s) => s[1]));
    const parts = [svg("line", { x1: 0, y1: HEIGHT, x2: WIDTH, y2: HEIGHT, class: "axis" })];
    this.leaves.forEach((name, number) => {
      if (this.hidden.has(name)) return;
      const index = this.names.indexOf(name) + 1;
      const points = this.samples.map((sample) => {
        const x = ((sample[0] - first) / span) * WIDTH;
        const y = HEIGHT - (sample[index] / top) * (HEIGHT - 4);
        return `${x.toFixed(1)},${y.toFixed(1)}`;
      });
      const line = svg("polyline", { points: points.join(" "), stroke: COLORS[number % COLORS.length] });
      line.dataset.state = name;
      parts.push(line);
    });
    this.chart.replaceChildren(...parts);
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
