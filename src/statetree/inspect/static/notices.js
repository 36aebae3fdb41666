// Messages for the user that are not about one field: shown under the header, each with
// a close button; the same message again counts up instead of piling up.
"use strict";

import { $, button, element } from "./dom.js";

const KEEP = 5; // notices on show at most
const FADE_MS = 15000; // errors close by themselves after this long

export function notify(text, kind = "error") {
  const box = $("notices");
  for (const note of box.children) {
    if (note.dataset.text === text) {
      const count = Number(note.dataset.count) + 1;
      note.dataset.count = String(count);
      note.querySelector(".count").textContent = `×${count}`;
      box.append(note); // the newest last
      return note;
    }
  }
  const note = element("div", `notice ${kind}`);
  note.setAttribute("role", kind === "error" ? "alert" : "status");
  note.dataset.text = text;
  note.dataset.count = "1";
  const close = button("×", () => note.remove(), "Close");
  close.className = "close";
  note.append(element("span", "text", text), element("span", "count"), close);
  box.append(note);
  while (box.childElementCount > KEEP) box.firstElementChild.remove();
  if (kind !== "hit") setTimeout(() => note.remove(), FADE_MS);
  return note;
}
