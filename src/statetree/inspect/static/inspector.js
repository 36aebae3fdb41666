// The statetree inspector page.
//
// It talks to the server over one websocket. The server sends a "hello" (the machines),
// a "view" for each watched machine (its diagram as SVG, or its table of flags), then
// "batch" messages at a fixed rate: new timeline rows, the active states of machines
// whose states changed, and decoded packets. The page sends the commands of the
// server's schema: subscribe, unsubscribe, pause, step, explain, chart-source,
// edit-chart. Nothing here is evaluated from the server: text goes through textContent
// and the SVG through DOMParser.
"use strict";

const MAX_ROWS = 5000; // timeline rows kept in memory
const SHOWN_ROWS = 600; // timeline rows in the table
const DEFAULT_WATCHED = 6; // machines watched when the page opens
const MAX_WATCH_SHOWN = 24; // "Watch shown" watches at most this many

const page = {
  socket: null,
  machines: new Map(), // id -> {id, name, kind, caps}
  watched: new Set(),
  cards: new Map(), // id -> Card
  rows: [], // [seq, frame, machine, category, label, state, depth, detail]
  paused: false,
  driven: false,
  frozen: false, // the timeline view stops moving (paused, program cannot pause)
  retry: 500,
  nextRef: 1,
  lastError: "",
  helloSeen: false,
};

const $ = (id) => document.getElementById(id);

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// -- the connection -----------------------------------------------------------------------

function connect() {
  const socket = new WebSocket(`ws://${location.host}/ws`);
  page.socket = socket;
  socket.addEventListener("open", () => {
    page.retry = 500;
    setConnection("connected", "ok");
  });
  socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  socket.addEventListener("close", () => {
    setConnection("disconnected: retrying", "bad");
    // Reconnect with a growing delay; the server may be restarting with the program.
    setTimeout(connect, page.retry);
    page.retry = Math.min(page.retry * 2, 5000);
  });
}

function setConnection(text, kind) {
  const badge = $("connection");
  badge.textContent = text;
  badge.className = `badge ${kind}`;
}

function send(message) {
  if (page.socket && page.socket.readyState === WebSocket.OPEN) {
    page.socket.send(JSON.stringify({ ...message, ref: page.nextRef++ }));
  }
}

// Sends text as it is: lets tests check that the server refuses malformed messages.
function sendRaw(text) {
  page.socket.send(text);
}

function receive(message) {
  const handler = RECEIVERS[message.type];
  if (handler) handler(message);
}

const RECEIVERS = {
  hello: onHello,
  view: (message) => ensureCard(message.machine).showView(message),
  batch: onBatch,
  subscribed: (message) => setWatched(message.machines),
  paused: (message) => setProgram({ paused: message.paused }),
  stepped: () => {},
  explained: (message) => page.cards.get(message.machine)?.showExplained(message),
  "chart-source": (message) => page.cards.get(message.machine)?.showSource(message),
  "chart-edited": (message) => page.cards.get(message.machine)?.showEdited(message),
  error: (message) => showError(message.message),
};

function onHello(message) {
  page.machines = new Map(message.machines.map((machine) => [machine.id, machine]));
  setProgram(message);
  renderMachineList();
  // A reconnect keeps what was watched; a first visit watches the first few machines.
  const wanted = page.helloSeen
    ? [...page.watched]
    : message.machines.slice(0, DEFAULT_WATCHED).map((machine) => machine.id);
  page.helloSeen = true;
  page.watched = new Set();
  if (wanted.length) send({ type: "subscribe", machines: wanted });
}

function onBatch(message) {
  setProgram(message);
  addRows(message.records);
  // A batch may come before the machine's view: the card keeps the states until then.
  for (const [id, highlight] of Object.entries(message.active || {})) {
    ensureCard(id).setActive(highlight);
  }
  for (const [id, packet] of Object.entries(message.packets || {})) {
    page.cards.get(id)?.showPacket(packet);
  }
}

// -- the program: frame, pause, step ------------------------------------------------------

function setProgram(status) {
  if ("frame" in status) $("frame").textContent = status.frame;
  if ("driven" in status) page.driven = status.driven;
  if ("paused" in status && page.driven) page.paused = status.paused;
  if ("lost" in status) {
    $("lost").textContent = status.lost ? `${status.lost} records lost (too many steps)` : "";
  }
  const runState = page.paused ? (page.driven ? "paused" : "timeline frozen") : "running";
  $("run-state").textContent = runState;
  $("pause").textContent = page.paused ? "Resume" : "Pause";
  $("step").disabled = !(page.paused && page.driven);
  const frozen = page.paused && !page.driven;
  if (page.frozen && !frozen) {
    page.frozen = false;
    renderTimeline();
  }
  page.frozen = frozen;
}

function togglePause() {
  const paused = !page.paused;
  if (page.driven) {
    send({ type: "pause", paused });
  } else {
    // The program does not ask whether to run its frames: only the view can stop.
    page.paused = paused;
    setProgram({});
  }
}

// -- the machine list and subscriptions -----------------------------------------------------

function renderMachineList() {
  const list = $("machine-list");
  const filter = $("machine-filter").value.trim().toLowerCase();
  list.replaceChildren();
  let shown = 0;
  for (const machine of page.machines.values()) {
    const text = `${machine.name} ${machine.kind}`.toLowerCase();
    if (filter && !text.includes(filter)) continue;
    shown += 1;
    const item = element("li");
    const label = element("label");
    const box = element("input");
    box.type = "checkbox";
    box.checked = page.watched.has(machine.id);
    box.dataset.machine = machine.id;
    box.addEventListener("change", () => {
      send({ type: box.checked ? "subscribe" : "unsubscribe", machines: [machine.id] });
    });
    label.append(box, ` ${machine.name} `, element("span", "kind badge", machine.kind));
    item.append(label);
    list.append(item);
  }
  $("machine-count").textContent = `${shown} of ${page.machines.size}`;
}

function shownMachineIds() {
  return [...$("machine-list").querySelectorAll("input[data-machine]")].map(
    (box) => box.dataset.machine,
  );
}

function setWatched(ids) {
  page.watched = new Set(ids);
  for (const [id, card] of page.cards) {
    if (!page.watched.has(id)) {
      card.root.remove();
      page.cards.delete(id);
    }
  }
  for (const id of ids) ensureCard(id);
  // Cards follow the order of the machine list.
  for (const id of page.machines.keys()) {
    if (page.cards.has(id)) $("cards").append(page.cards.get(id).root);
  }
  $("no-cards").hidden = page.cards.size > 0;
  for (const box of $("machine-list").querySelectorAll("input[data-machine]")) {
    box.checked = page.watched.has(box.dataset.machine);
  }
  renderMachineFilter();
}

function ensureCard(id) {
  let card = page.cards.get(id);
  if (!card) {
    card = new Card(page.machines.get(id) || { id, name: id, kind: "?", caps: [] });
    page.cards.set(id, card);
    $("cards").append(card.root);
    $("no-cards").hidden = true;
  }
  return card;
}

// -- a watched machine's card ---------------------------------------------------------------

class Card {
  constructor(machine) {
    this.machine = machine;
    this.root = $("card-template").content.firstElementChild.cloneNode(true);
    this.root.dataset.machine = machine.id;
    this.root.querySelector(".name").textContent = machine.name;
    this.root.querySelector(".kind").textContent = machine.kind;
    this.root.querySelector(".close").addEventListener("click", () => {
      send({ type: "unsubscribe", machines: [machine.id] });
    });
    this.view = this.root.querySelector(".view");
    this.items = new Map(); // state name -> element to highlight
    this.links = new Map(); // "source->target" -> edge element
    this.lit = [];
    this.active = { states: [], links: [] };
  }

  showView(message) {
    this.items = new Map();
    this.links = new Map();
    this.lit = [];
    if (message.view === "flags") {
      this.view.replaceChildren(this.flagsTable(message.flags));
    } else {
      this.view.replaceChildren(this.diagram(message));
    }
    this.setActive(this.active);
    if (this.machine.caps.includes("edit")) {
      send({ type: "chart-source", machine: this.machine.id });
    }
  }

  diagram(message) {
    const colors = message.colors;
    this.root.style.setProperty("--active-fill", colors.fill);
    this.root.style.setProperty("--active-text", colors.text);
    this.root.style.setProperty("--active-line", colors.line);
    if (!message.svg) {
      // Without Graphviz there is no layout: list the states instead.
      const list = element("ul", "state-list");
      for (const name of message.states) {
        const item = element("li", "", name);
        item.dataset.state = name;
        this.items.set(name, item);
        list.append(item);
      }
      const note = element("p", "warning", message.error);
      const box = element("div");
      box.append(note, list);
      return box;
    }
    const parsed = new DOMParser().parseFromString(message.svg, "image/svg+xml");
    const svg = document.importNode(parsed.documentElement, true);
    svg.classList.add("diagram");
    // Graphviz names each node and edge in its <title> ("Alive", "Alive->Dead") and gives
    // it an id ("node1") that repeats across diagrams: keep the names, drop the ids.
    for (const group of svg.querySelectorAll("g.node, g.edge")) {
      const key = group.querySelector("title")?.textContent ?? "";
      group.removeAttribute("id");
      if (group.classList.contains("node")) {
        group.dataset.state = key;
        this.items.set(key, group);
      } else {
        this.links.set(key, group);
      }
    }
    svg.removeAttribute("id");
    // Draw at 75% of Graphviz's size; the height follows from the viewBox.
    const width = parseFloat(svg.getAttribute("width") || "0");
    if (width) svg.style.width = `${Math.round(width * 0.75)}pt`;
    svg.removeAttribute("height");
    return svg;
  }

  flagsTable(flags) {
    const table = element("table", "flags");
    const head = element("tr");
    for (const title of ["bit", "state", "requires", "terminates", "blocked by", ""]) {
      head.append(element("th", "", title));
    }
    table.append(head);
    flags.forEach((flag, index) => {
      const row = element("tr");
      row.dataset.state = flag.name;
      row.title = "Click: can this state activate now?";
      row.append(
        element("td", "bit", String(index)),
        element("td", "flag-name", flag.name),
        element("td", "", flag.requires.join(", ")),
        element("td", "", flag.terminates.join(", ")),
        element("td", "", flag.blocked_by.join(", ")),
        element("td", "muted", flag.tags.join(", ")),
      );
      row.addEventListener("click", () => {
        send({ type: "explain", machine: this.machine.id, state: flag.name });
      });
      this.items.set(flag.name, row);
      table.append(row);
    });
    return table;
  }

  setActive(highlight) {
    this.active = highlight;
    for (const item of this.lit) item.classList.remove("st-active");
    this.lit = [];
    for (const name of highlight.states) this.light(this.items.get(name));
    for (const [source, target] of highlight.links) {
      this.light(this.links.get(`${source}->${target}`));
    }
    const names = highlight.states.map((name) => name.split(".").pop());
    this.root.querySelector(".active-states").textContent = names.join(" › ") || "(none active)";
  }

  light(item) {
    if (item) {
      item.classList.add("st-active");
      this.lit.push(item);
    }
  }

  showExplained(message) {
    const box = this.root.querySelector(".explain");
    box.hidden = false;
    box.className = `explain ${message.possible ? "ok" : "bad"}`;
    box.replaceChildren(element("p", "", message.text));
  }

  showPacket(packet) {
    const box = this.root.querySelector(".packet");
    box.hidden = false;
    box.replaceChildren(renderPacket(packet));
  }

  showSource(message) {
    const box = this.root.querySelector(".editor");
    box.hidden = false;
    box.replaceChildren(window.chartEditor.render(this.machine.id, message, send));
    window.chartEditor.showLast(box);
  }

  showEdited(message) {
    window.chartEditor.edited(this.root.querySelector(".editor"), message);
    this.showSource(message);
  }
}

// -- packets ------------------------------------------------------------------------------

function packetBit(bytes, order, index) {
  const byte = bytes[index >> 3];
  const shift = order === "lsb" ? index & 7 : 7 - (index & 7);
  return (byte >> shift) & 1;
}

function renderPacket(packet) {
  const box = element("div");
  box.append(element("h4", "", `Last update: ${packet.size} byte(s)`));
  box.append(element("code", "hex", packet.hex));
  if (packet.summary) box.append(element("p", "", packet.summary));
  if (packet.error) box.append(element("p", "warning", packet.error));
  const bytes = packet.hex ? packet.hex.split(" ").map((pair) => parseInt(pair, 16)) : [];
  const table = element("table", "fields");
  const head = element("tr");
  for (const title of ["field", "bits", "raw", "value"]) head.append(element("th", "", title));
  table.append(head);
  for (const field of packet.fields) {
    let raw = "";
    for (let bit = field.start; bit < field.start + field.width; bit += 1) {
      raw += packetBit(bytes, packet.bit_order, bit);
    }
    const last = field.start + field.width - 1;
    const span = field.width === 1 ? `${field.start}` : `${field.start}–${last}`;
    const row = element("tr");
    row.append(
      element("td", "", field.name),
      element("td", "bit", span),
      element("td", "raw", raw),
      element("td", "", field.value),
    );
    table.append(row);
  }
  box.append(table);
  return box;
}

// -- the timeline -------------------------------------------------------------------------

function machineName(id) {
  return page.machines.get(id)?.name ?? id;
}

function addRows(rows) {
  if (!rows.length) return;
  page.rows.push(...rows);
  if (page.rows.length > MAX_ROWS) page.rows.splice(0, page.rows.length - MAX_ROWS);
  if (page.frozen) return;
  const body = $("timeline-rows");
  // Newest first: new matching rows go on top, the table keeps SHOWN_ROWS.
  for (const row of rows) {
    if (rowMatches(row)) body.prepend(timelineRow(row));
  }
  while (body.childElementCount > SHOWN_ROWS) body.lastElementChild.remove();
  $("timeline-count").textContent = `${page.rows.length} steps`;
}

function timelineFilter() {
  const categories = new Set(
    [...$("timeline-categories").querySelectorAll("input:checked")].map((box) => box.value),
  );
  return {
    machine: $("timeline-machine").value,
    categories,
    search: $("timeline-search").value.trim().toLowerCase(),
  };
}

function rowMatches(row, filter = timelineFilter()) {
  const [, , machine, category, label, stateName, , detail] = row;
  if (filter.machine && machine !== filter.machine) return false;
  if (!filter.categories.has(category)) return false;
  if (!filter.search) return true;
  const text = `${machineName(machine)} ${label} ${stateName} ${detail}`.toLowerCase();
  return text.includes(filter.search);
}

function timelineRow(row) {
  const [seq, frame, machine, category, label, stateName, depth, detail] = row;
  const line = element("tr", `step ${category}`);
  const stateCell = element("td", "state", stateName);
  // Deeper states are indented, as in the book's trace lines.
  if (depth > 0) stateCell.style.paddingLeft = `${0.4 + depth}em`;
  line.append(
    element("td", "muted", String(seq)),
    element("td", "", String(frame)),
    element("td", "", machineName(machine)),
    element("td", "what", `${category} · ${label}`),
    stateCell,
    element("td", "muted", detail),
  );
  return line;
}

function renderTimeline() {
  const filter = timelineFilter();
  const shown = [];
  for (let index = page.rows.length - 1; index >= 0 && shown.length < SHOWN_ROWS; index -= 1) {
    if (rowMatches(page.rows[index], filter)) shown.push(timelineRow(page.rows[index]));
  }
  $("timeline-rows").replaceChildren(...shown);
  $("timeline-count").textContent = `${page.rows.length} steps`;
}

function renderMachineFilter() {
  const select = $("timeline-machine");
  const chosen = select.value;
  const options = [element("option", "", "all watched machines")];
  options[0].value = "";
  for (const id of page.watched) {
    const option = element("option", "", machineName(id));
    option.value = id;
    options.push(option);
  }
  select.replaceChildren(...options);
  select.value = page.watched.has(chosen) ? chosen : "";
}

// -- errors -------------------------------------------------------------------------------

function showError(text) {
  page.lastError = text;
  const note = element("div", "error", text);
  const box = $("errors");
  box.append(note);
  while (box.childElementCount > 4) box.firstElementChild.remove();
  setTimeout(() => note.remove(), 12000);
}

// -- wiring -------------------------------------------------------------------------------

function start() {
  $("pause").addEventListener("click", togglePause);
  $("step").addEventListener("click", () => send({ type: "step", frames: 1 }));
  $("machine-filter").addEventListener("input", renderMachineList);
  $("watch-shown").addEventListener("click", () => {
    const ids = shownMachineIds().slice(0, MAX_WATCH_SHOWN);
    if (ids.length) send({ type: "subscribe", machines: ids });
  });
  $("unwatch-all").addEventListener("click", () => {
    if (page.watched.size) send({ type: "unsubscribe", machines: [...page.watched] });
  });
  $("timeline-machine").addEventListener("change", renderTimeline);
  $("timeline-search").addEventListener("input", renderTimeline);
  $("timeline-categories").addEventListener("change", renderTimeline);
  $("timeline-clear").addEventListener("click", () => {
    page.rows = [];
    renderTimeline();
  });
  connect();
}

// For tests and the console: the page's state and its way to talk to the server.
window.inspector = { page, send, sendRaw };

start();
