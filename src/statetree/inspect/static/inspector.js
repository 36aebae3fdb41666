// The statetree inspector page.
//
// It talks to the server over one websocket. The server sends a "hello" (the machines),
// a "view" for each watched machine (its diagram as SVG, or its table of flags, and its
// event palette), then "batch" messages at a fixed rate: new timeline rows, the active
// states of machines whose states changed, decoded packets, breakpoints, and the
// program's frame, pause state and last breakpoint hit. The page sends the commands of
// the server's schema; a request's reply (or error) carries the request's "ref". Nothing
// here is evaluated from the server: text goes through textContent and the SVG through
// DOMParser.
"use strict";

import { Card } from "./cards.js";
import { $, element } from "./dom.js";
import { notify } from "./notices.js";
import { Timeline, TimelinePanel } from "./timeline.js";

const DEFAULT_WATCHED = 6; // machines watched when the page opens
const MAX_WATCH_SHOWN = 100; // "Watch shown" watches at most this many, and says so
const VALUE_TRIES = 10; // time travel asks this many times for values not read yet
const VALUE_RETRY_MS = 100; // and waits this long between two asks
const MAX_MESSAGE_BYTES = 65536; // the most the server reads of one message (its protocol's)

const page = {
  socket: null,
  machines: new Map(), // id -> {id, name, kind, caps}
  watched: new Set(),
  cards: new Map(), // id -> Card
  paused: false,
  driven: false,
  hit: 0, // serial of the last breakpoint hit seen
  hitMachine: null, // the machine shown at its step that hit, until the program resumes
  pendingHit: null, // the last hit, until its row arrives and the page travels to it
  retry: 500,
  nextRef: 1,
  replies: new Map(), // ref -> {resolve, reject} of requests waiting for their reply
  travels: new Map(), // machine id -> {busy, wanted, tries, last, visit}: time travel requests
  lastError: "",
  helloSeen: false,
  program: null, // the program served: another one (restarted) numbers rows and hits anew
  panel: null, // the timeline's panel (its size, collapsed or not)
};

const machineName = (id) => page.machines.get(id)?.name ?? id;
const timeline = new Timeline(machineName, (machine, seq) => {
  // A clicked step: its machine's card comes into view, showing the machine at that step.
  page.cards.get(machine)?.reveal();
  travel(machine, seq);
});

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
    for (const waiting of page.replies.values()) waiting.reject({ message: "disconnected" });
    page.replies.clear();
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

// Sends a command; returns its ref. One over the server's limit is not sent: its error
// comes back at once, as the server's would, saying what to do.
function send(message) {
  const ref = page.nextRef++;
  // The ref first: a message over the server's limit is refused with it all the same.
  const text = JSON.stringify({ ref, ...message });
  const size = new TextEncoder().encode(text).length;
  if (size > MAX_MESSAGE_BYTES) {
    const what = message.edit?.text === undefined ? "the message" : "the chart's text";
    const said =
      `${what} is too long to send: ${size} bytes with its request, the inspector takes ` +
      `${MAX_MESSAGE_BYTES}; edit a chart this large in its file`;
    queueMicrotask(() => receive({ type: "error", ref, message: said }));
  } else if (page.socket && page.socket.readyState === WebSocket.OPEN) {
    page.socket.send(text);
  }
  return ref;
}

// Sends a command and resolves with its reply, or rejects with its error message (which
// is then the caller's to show).
function request(message) {
  return new Promise((resolve, reject) => {
    const ref = send(message);
    page.replies.set(ref, { resolve, reject });
  });
}

// Sends text as it is: lets tests check that the server refuses malformed messages.
function sendRaw(text) {
  page.socket.send(text);
}

function receive(message) {
  RECEIVERS[message.type]?.(message);
  const waiting = page.replies.get(message.ref);
  if (waiting) {
    page.replies.delete(message.ref);
    if (message.type === "error") waiting.reject(message);
    else waiting.resolve(message);
  }
}

const RECEIVERS = {
  hello: onHello,
  view: (message) => ensureCard(message.machine).showView(message),
  batch: onBatch,
  subscribed: (message) => setWatched(message.machines),
  paused: (message) => setProgram({ paused: message.paused }),
  explained: (message) => page.cards.get(message.machine)?.showExplained(message),
  breakpoints: (message) => page.cards.get(message.machine)?.setBreaks(message.breakpoints),
  "chart-edited": (message) => page.cards.get(message.machine)?.editor?.edited(message),
  error: onError,
};

function onError(message) {
  page.lastError = message.message;
  // A request that waits for its reply shows its own error (next to its field).
  if (!page.replies.has(message.ref)) notify(message.message);
}

function onHello(message) {
  page.machines = new Map(message.machines.map((machine) => [machine.id, machine]));
  if (page.program !== null && message.program !== page.program) forgetProgram();
  page.program = message.program;
  setProgram(message);
  // A reconnect keeps what was watched, of what the program still has; a first visit
  // watches the first few machines.
  const wanted = page.helloSeen
    ? [...page.watched].filter((id) => page.machines.has(id))
    : message.machines.slice(0, DEFAULT_WATCHED).map((machine) => machine.id);
  page.helloSeen = true;
  page.watched = new Set();
  renderMachineList();
  if (wanted.length) watch(wanted);
  else setWatched([]);
}

// Another program is served (the one watched restarted): its rows, steps and hits are
// numbered anew, so what the page kept of the old one goes.
function forgetProgram() {
  timeline.forget();
  page.hit = 0;
  page.pendingHit = null;
  page.hitMachine = null;
  page.travels.clear();
  $("hit").textContent = "";
}

function onBatch(message) {
  timeline.add(message.records);
  // A batch may come before the machine's view: the card keeps the states until then.
  for (const [id, highlight] of Object.entries(message.active || {})) {
    ensureCard(id).setActive(highlight);
  }
  for (const [id, packet] of Object.entries(message.packets || {})) {
    page.cards.get(id)?.showPacket(packet);
  }
  for (const [id, breaks] of Object.entries(message.breaks || {})) {
    page.cards.get(id)?.setBreaks(breaks);
  }
  for (const [id, samples] of Object.entries(message.population || {})) {
    page.cards.get(id)?.addSamples(samples);
  }
  setProgram(message);
  travelToHit();
}

// -- the program: frame, pause, step, breakpoints -------------------------------------------

function setProgram(status) {
  if ("frame" in status) $("frame").textContent = status.frame;
  if ("driven" in status && status.driven !== page.driven) {
    page.driven = status.driven;
    for (const card of page.cards.values()) card.showBreaks();
  }
  if ("paused" in status && page.driven) page.paused = status.paused;
  if ("lost" in status) {
    $("lost").textContent = status.lost ? `${status.lost} records lost (too many steps)` : "";
  }
  if (status.hit) showHit(status.hit);
  const runState = page.paused ? (page.driven ? "paused" : "timeline frozen") : "running";
  $("run-state").textContent = runState;
  $("pause").textContent = page.paused ? "Resume" : "Pause";
  $("step").disabled = !(page.paused && page.driven);
  $("hit").hidden = !page.paused || !$("hit").textContent;
  timeline.setFrozen(page.paused && !page.driven);
}

// A breakpoint paused the program: say where, and show the machine at that step.
function showHit([serial, machine, on, target, frame]) {
  if (serial <= page.hit) return;
  page.hit = serial;
  const what = { enter: "entered", exit: "exited", event: "got the event" }[on];
  $("hit").textContent = `Breakpoint: ${machineName(machine)} ${what} ${target} (frame ${frame})`;
  $("hit").hidden = false;
  page.pendingHit = { machine, on, target, frame };
}

// Show the machine that hit a breakpoint at the step that hit it, once the page has that
// step's row (it may come in a later batch than the hit).
function travelToHit() {
  const hit = page.pendingHit;
  if (!hit) return;
  const seq = timeline.hitRow(hit.machine, hit.on, hit.target, hit.frame);
  if (seq === null) return;
  page.pendingHit = null;
  page.hitMachine = hit.machine;
  travel(hit.machine, seq);
}

function togglePause() {
  const paused = !page.paused;
  if (page.driven) {
    send({ type: "pause", paused });
    if (!paused) {
      // Running again: the machine that hit a breakpoint is shown live again.
      $("hit").textContent = "";
      if (page.hitMachine) live(page.hitMachine);
      page.hitMachine = null;
      page.pendingHit = null;
    }
  } else {
    // The program does not ask whether to run its frames: only the view can stop.
    page.paused = paused;
    setProgram({});
  }
}

// -- time travel ----------------------------------------------------------------------------

// Show a machine as it was just after one of its rows. While a request is out, only the
// last step asked for is sent next (a dragged slider asks for many).
function travel(machine, seq) {
  if (!page.cards.has(machine)) return;
  if (!page.travels.has(machine)) {
    page.travels.set(machine, { busy: false, wanted: null, tries: 0, visit: 0 });
  }
  const state = page.travels.get(machine);
  if (seq !== state.last) state.tries = 0;
  state.wanted = seq;
  if (!state.busy) sendTravel(machine, state);
}

function sendTravel(machine, state) {
  const asked = state.wanted;
  state.wanted = null;
  state.busy = true;
  state.last = asked;
  const visit = state.visit;
  request({ type: "travel", machine, seq: asked }).then((message) => {
    const card = page.cards.get(machine);
    // A reply that comes after the card went back live (a request was out when Live or
    // Resume was clicked) belongs to a visit that is over.
    if (!card || visit !== state.visit) return;
    card.showTravel(message);
    timeline.pick(message.seq);
    // The values of a step's frame are read when the program's next frame begins: ask
    // again shortly, a few times at most.
    if (message.pending && (state.tries += 1) <= VALUE_TRIES) {
      setTimeout(() => {
        if (card.travel?.seq === asked && state.wanted === null) travel(machine, asked);
      }, VALUE_RETRY_MS);
    }
  }, (error) => notify(error.message)).finally(() => {
    state.busy = false;
    if (state.wanted !== null) sendTravel(machine, state);
  });
}

function live(machine) {
  const state = page.travels.get(machine);
  if (state) {
    state.visit += 1;
    state.wanted = null;
  }
  page.cards.get(machine)?.leaveTravel();
  timeline.pick(null);
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
    box.addEventListener("change", () => (box.checked ? watch : unwatch)([machine.id]));
    label.title = `${machine.name} (${machine.kind})`;
    label.append(box, element("span", "machine-name", machine.name));
    item.append(label, element("span", "kind badge", machine.kind));
    list.append(item);
  }
  $("machine-count").textContent = `${shown} of ${page.machines.size}`;
}

function watchShown() {
  const ids = [...$("machine-list").querySelectorAll("input[data-machine]")].map(
    (box) => box.dataset.machine,
  );
  if (ids.length > MAX_WATCH_SHOWN) {
    notify(
      `Watching the first ${MAX_WATCH_SHOWN} of the ${ids.length} machines shown: ` +
        "narrow the filter to watch the others.",
      "info",
    );
  }
  watch(ids.slice(0, MAX_WATCH_SHOWN));
}

// The boxes show what the page asked for at once, not when the reply comes: a box that
// stayed unticked under a machine's card until then would take a click meant to unwatch
// it as one to watch it. The reply (setWatched) then says what is watched.
function watch(ids) {
  if (!ids.length) return;
  for (const id of ids) page.watched.add(id);
  showWatched();
  send({ type: "subscribe", machines: ids });
}

function unwatch(ids) {
  if (!ids.length) return;
  for (const id of ids) page.watched.delete(id);
  showWatched();
  send({ type: "unsubscribe", machines: ids });
}

function showWatched() {
  for (const box of $("machine-list").querySelectorAll("input[data-machine]")) {
    box.checked = page.watched.has(box.dataset.machine);
  }
}

function setWatched(ids) {
  page.watched = new Set(ids);
  for (const [id, card] of page.cards) {
    if (!page.watched.has(id)) {
      if (card.root.classList.contains("expanded")) card.toggleExpanded(false);
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
  showWatched();
  timeline.machineOptions(page.watched);
}

const app = {
  send,
  unwatch,
  request,
  program: () => ({ driven: page.driven, paused: page.paused }),
  rowsOf: (id) => timeline.seqsOf(id),
  travel,
  live,
};

function ensureCard(id) {
  let card = page.cards.get(id);
  if (!card) {
    card = new Card(page.machines.get(id) || { id, name: id, kind: "?", caps: [] }, app);
    page.cards.set(id, card);
    $("cards").append(card.root);
    $("no-cards").hidden = true;
  }
  return card;
}

// -- wiring -------------------------------------------------------------------------------

function start() {
  page.panel = new TimelinePanel();
  $("pause").addEventListener("click", togglePause);
  $("step").addEventListener("click", () => send({ type: "step", frames: 1 }));
  $("machine-filter").addEventListener("input", renderMachineList);
  $("watch-shown").addEventListener("click", watchShown);
  $("unwatch-all").addEventListener("click", () => unwatch([...page.watched]));
  let refitting = 0;
  window.addEventListener("resize", () => {
    // Once the size settles, diagrams the user has not zoomed or moved are framed again.
    clearTimeout(refitting);
    refitting = setTimeout(() => {
      for (const card of page.cards.values()) card.refit();
    }, 150);
  });
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    for (const card of page.cards.values()) {
      if (card.root.classList.contains("expanded")) card.toggleExpanded(false);
    }
  });
  connect();
}

// For tests and the console: the page's state and its way to talk to the server.
window.inspector = { page, send, sendRaw, request, timeline };

start();
