// The last serialised update of a machine: its bytes, then field by field.
"use strict";

import { element } from "./dom.js";

function packetBit(bytes, order, index) {
  const byte = bytes[index >> 3];
  const shift = order === "lsb" ? index & 7 : 7 - (index & 7);
  return (byte >> shift) & 1;
}

export function renderPacket(packet) {
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
