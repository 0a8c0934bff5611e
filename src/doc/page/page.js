// The page of a rule (rulec doc --format html): the board over the document. This text is
// the same for every rule; what is the rule's own comes from the page — the board template,
// the rule data (`#rule-data`) and the document the tables are moved out of — and from
// `wire`, the generated module's door: wire(call, tag) returns the fixtures record line of
// the call, or throws RuleInputError (`what`, `value`) or RuleContradictionError (`what`).
// Exact throughout: numbers are read and shown from their digits, never as floats.

/** Build the board, wire the form to `wire`, and run the case the page opens on. */
function startPage(wire, dataId) {
  const data = JSON.parse(document.getElementById(dataId).textContent);
  const template = document.getElementById("board-template");
  const docView = document.getElementById("doc-view");
  const board = template.content.firstElementChild.cloneNode(true);
  const store = document.createElement("div");
  store.hidden = true;
  store.className = "dock-store";
  board.append(store);
  document.body.insertBefore(board, docView);
  document.body.classList.add("has-board");

  const cards = Array.from(board.querySelectorAll(".card"));
  const cardOf = new Map(cards.map((c) => [c.dataset.decider, c]));
  const dock = board.querySelector(".dock");
  const dockTitle = dock.querySelector("#dock-title");
  const dockBody = dock.querySelector(".dock-body");
  const canvas = board.querySelector(".canvas");
  const wires = board.querySelector(".wires");
  const status = board.querySelector(".status");
  const recordLine = board.querySelector(".record-line");
  const formError = board.querySelector(".form-error");

  // ---- the document's parts: a card's table, a dock's notes. Moved, never copied, so the
  // board and the document cannot disagree; "Read as a document" puts them back.
  const parts = Array.from(docView.querySelectorAll("[data-part]"));
  const homes = new Map();
  for (const part of parts) {
    const home = document.createComment("part " + part.dataset.part + " " + part.dataset.decider);
    part.before(home);
    homes.set(part, home);
  }
  const partOf = (slot, decider) => parts.find((p) => p.dataset.part === slot && p.dataset.decider === decider);

  function mountParts() {
    for (const part of parts) {
      const card = cardOf.get(part.dataset.decider);
      if (part.dataset.part === "card" && card) {
        card.querySelector(".card-body").append(part);
      } else {
        store.append(part);
      }
    }
  }

  function unmountParts() {
    for (const part of parts) {
      homes.get(part).after(part);
    }
  }

  // ---- selection and keyboard navigation between cards

  let selected = null;

  function select(card, focus) {
    if (!card) {
      return;
    }
    selected = card;
    for (const c of cards) {
      const on = c === card;
      c.classList.toggle("selected", on);
      c.tabIndex = on ? 0 : -1;
      c.setAttribute("aria-current", on ? "true" : "false");
    }
    for (const part of Array.from(dockBody.children)) {
      store.append(part);
    }
    const notes = partOf("dock", card.dataset.decider);
    if (notes) {
      dockBody.append(notes);
    }
    dockTitle.textContent = card.querySelector("h3").textContent + " — where each column comes from, and what check verified";
    drawWires();
    if (focus) {
      card.focus({ preventScroll: false });
      card.scrollIntoView({ block: "nearest", inline: "nearest" });
    }
  }

  const place = (c) => ({ column: Number(c.dataset.column), row: Number(c.dataset.row) });

  /** The card the arrow key leads to from `card`: the nearest row in the next column over. */
  function neighbour(card, key) {
    const at = place(card);
    const inColumn = (k) => cards.filter((c) => place(c).column === k);
    switch (key) {
      case "ArrowUp":
        return inColumn(at.column).find((c) => place(c).row === at.row - 1);
      case "ArrowDown":
        return inColumn(at.column).find((c) => place(c).row === at.row + 1);
      case "ArrowLeft":
      case "ArrowRight": {
        const step = key === "ArrowLeft" ? -1 : 1;
        const columns = Array.from(new Set(cards.map((c) => place(c).column))).sort((a, b) => a - b);
        const next = columns[columns.indexOf(at.column) + step];
        if (next === undefined) {
          return undefined;
        }
        const there = inColumn(next);
        return there.reduce((best, c) => (Math.abs(place(c).row - at.row) < Math.abs(place(best).row - at.row) ? c : best));
      }
      case "Home":
        return cards[0];
      case "End":
        return cards[cards.length - 1];
      default:
        return undefined;
    }
  }

  for (const card of cards) {
    card.addEventListener("click", () => select(card, false));
    card.addEventListener("keydown", (e) => {
      const next = neighbour(card, e.key);
      if (next) {
        e.preventDefault();
        select(next, true);
      } else if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        select(card, false);
        dock.scrollIntoView({ block: "nearest" });
      }
    });
  }

  // ---- the arrows between cards: which decider reads a value another decides

  const svgNs = "http://www.w3.org/2000/svg";

  function drawWires() {
    const box = canvas.getBoundingClientRect();
    const grid = canvas.querySelector(".grid");
    wires.setAttribute("width", String(grid.scrollWidth));
    wires.setAttribute("height", String(grid.scrollHeight));
    while (wires.firstChild) {
      wires.firstChild.remove();
    }
    const defs = document.createElementNS(svgNs, "defs");
    for (const id of ["arrow", "arrow-on"]) {
      const marker = document.createElementNS(svgNs, "marker");
      marker.setAttribute("id", "wire-" + id);
      marker.setAttribute("viewBox", "0 0 8 8");
      marker.setAttribute("refX", "7");
      marker.setAttribute("refY", "4");
      marker.setAttribute("markerWidth", "8");
      marker.setAttribute("markerHeight", "8");
      marker.setAttribute("orient", "auto");
      const tip = document.createElementNS(svgNs, "path");
      tip.setAttribute("d", "M0,0 L8,4 L0,8 z");
      tip.setAttribute("class", id === "arrow" ? "tip" : "tip on");
      marker.append(tip);
      defs.append(marker);
    }
    wires.append(defs);
    for (const link of data.links) {
      const a = cardOf.get(link.from);
      const b = cardOf.get(link.to);
      if (!a || !b) {
        continue;
      }
      const ra = a.getBoundingClientRect();
      const rb = b.getBoundingClientRect();
      const x1 = ra.right - box.left + canvas.scrollLeft;
      const y1 = ra.top + Math.min(ra.height / 2, 28) - box.top + canvas.scrollTop;
      const x2 = rb.left - box.left + canvas.scrollLeft - 2;
      const y2 = rb.top + Math.min(rb.height / 2, 28) - box.top + canvas.scrollTop;
      const bend = Math.max(24, (x2 - x1) / 2);
      const path = document.createElementNS(svgNs, "path");
      path.setAttribute("d", `M${x1},${y1} C${x1 + bend},${y1} ${x2 - bend},${y2} ${x2},${y2}`);
      const on = selected !== null && (a === selected || b === selected);
      path.setAttribute("class", on ? "wire on" : "wire");
      path.setAttribute("marker-end", on ? "url(#wire-arrow-on)" : "url(#wire-arrow)");
      wires.append(path);
    }
  }

  // ---- both borders can be dragged (and moved with the arrow keys)

  function splitter(el, property, measure, min, max, keys) {
    const set = (px) => {
      const v = Math.round(Math.min(max(), Math.max(min, px)));
      board.style.setProperty(property, v + "px");
      el.setAttribute("aria-valuenow", String(v));
      el.setAttribute("aria-valuemin", String(min));
      el.setAttribute("aria-valuemax", String(Math.round(max())));
      drawWires();
    };
    el.addEventListener("pointerdown", (e) => {
      e.preventDefault();
      el.setPointerCapture(e.pointerId);
      el.classList.add("dragging");
      const move = (ev) => set(measure(ev));
      const up = () => {
        el.classList.remove("dragging");
        el.removeEventListener("pointermove", move);
        el.removeEventListener("pointerup", up);
        el.removeEventListener("pointercancel", up);
      };
      el.addEventListener("pointermove", move);
      el.addEventListener("pointerup", up);
      el.addEventListener("pointercancel", up);
    });
    el.addEventListener("keydown", (e) => {
      const now = Number(el.getAttribute("aria-valuenow"));
      const delta = { [keys[0]]: -16, [keys[1]]: 16 }[e.key];
      if (delta !== undefined) {
        e.preventDefault();
        set(now + delta);
      } else if (e.key === "Home" || e.key === "End") {
        e.preventDefault();
        set(e.key === "Home" ? min : max());
      }
    });
    return set;
  }

  const workspace = board.querySelector(".workspace");
  const stage = board.querySelector(".stage");
  const pane = board.querySelector(".pane");
  const setPane = splitter(
    board.querySelector(".split-v"),
    "--pane",
    (e) => e.clientX - workspace.getBoundingClientRect().left,
    240,
    () => workspace.getBoundingClientRect().width * 0.6,
    ["ArrowLeft", "ArrowRight"],
  );
  const setDock = splitter(
    board.querySelector(".split-h"),
    "--dock",
    (e) => stage.getBoundingClientRect().bottom - e.clientY,
    96,
    () => stage.getBoundingClientRect().height * 0.75,
    ["ArrowDown", "ArrowUp"],
  );

  // ---- reading the form: the wire form of the call, exactly

  /** A decimal text as {neg, digits, exp}: the value is ±digits × 10^exp; null if it is not one. */
  function decimal(t) {
    const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(t);
    if (m === null || (m[2] === "" && (m[3] === undefined || m[3] === ""))) {
      return null;
    }
    const frac = m[3] || "";
    return { neg: m[1] === "-", digits: BigInt((m[2] || "0") + frac), exp: Number(m[4] || "0") - frac.length };
  }

  /**
   * `a / b` of decimals as the wire takes it: a bigint when the quotient is whole, else a
   * JavaScript number that is not an integer (which is all the door needs to refuse it).
   */
  function quotient(a, b) {
    const num = a.digits * 10n ** BigInt(Math.max(0, a.exp - b.exp));
    const den = b.digits * 10n ** BigInt(Math.max(0, b.exp - a.exp));
    const sign = a.neg !== b.neg ? -1n : 1n;
    if (den !== 0n && num % den === 0n) {
      return sign * (num / den);
    }
    const f = (Number(sign) * Number(num)) / Number(den);
    return Number.isInteger(f) || !Number.isFinite(f) ? Number.NaN : f;
  }

  const ONE = { neg: false, digits: 1n, exp: 0 };

  /**
   * A number as the page prints it, read back: the unit after it (`1,930 JPY`, `12.5%`)
   * and separators between groups of three digits (`1,000`) taken off. Anything else is
   * left as typed, for the door to refuse.
   */
  function printed(input, t) {
    const suffix = input.kind === "rate" ? "%" : input.unit;
    if (suffix && t.endsWith(suffix)) {
      t = t.slice(0, t.length - suffix.length).trimEnd();
    }
    return /^[+-]?\d{1,3}(,\d{3})+(\.\d*)?$/.test(t) ? t.replace(/,/g, "") : t;
  }

  function fieldValue(input) {
    return valueOf(input, document.getElementById(input.id));
  }

  /** What a control holds, as the wire spells a value of `input`'s kind (undefined: left out). */
  function valueOf(input, el) {
    const raw = el.value;
    const t = raw.trim();
    switch (input.kind) {
      case "integer":
      case "rate": {
        if (t === "") {
          return undefined;
        }
        const d = decimal(printed(input, t));
        if (d === null) {
          return t;
        }
        // Past any range either way; kept small so a typed 1e999999 costs nothing.
        d.exp = Math.max(-4000, Math.min(4000, d.exp));
        return quotient(d, input.kind === "rate" ? decimal(input.step) : ONE);
      }
      case "bool":
        return raw === "" ? undefined : raw === "true";
      case "string":
        return raw === "" && input.optional ? undefined : raw;
      default:
        return raw === "" ? undefined : raw;
    }
  }

  function readCall() {
    const call = {};
    for (const input of data.inputs) {
      const v = fieldValue(input);
      if (v !== undefined) {
        call[input.name] = v;
      }
    }
    // Each sequence: one object per row, a field left empty left out.
    for (const seq of data.sequences) {
      call[seq.name] = rowsOf(seq).map((tr) => {
        const element = {};
        for (const field of seq.fields) {
          const v = valueOf(field, controlOf(tr, field));
          if (v !== undefined) {
            element[field.name] = v;
          }
        }
        return element;
      });
    }
    return call;
  }

  function fieldsetOf(seq) {
    return board.querySelector('fieldset[data-sequence="' + CSS.escape(seq.name) + '"]');
  }

  function rowsOf(seq) {
    return Array.from(fieldsetOf(seq).querySelectorAll("tbody > tr"));
  }

  function controlOf(tr, field) {
    return tr.querySelector('[data-field="' + CSS.escape(field.name) + '"]');
  }

  /** A new, empty row at the end of a sequence's table. */
  function addRow(fieldset) {
    const row = fieldset.querySelector("template.row-template").content.firstElementChild.cloneNode(true);
    fieldset.querySelector("tbody").append(row);
    return row;
  }

  /** Show a value of the wire in a control (a field of the form, or of a row). */
  function setValue(input, el, v) {
    if (v === undefined || v === null) {
      el.value = "";
    } else if (input.kind === "rate" && (typeof v === "bigint" || Number.isInteger(v))) {
      el.value = decimalText(BigInt(v), decimal(input.step));
    } else if (input.kind === "bool") {
      el.value = v ? "true" : "false";
    } else {
      el.value = String(v);
    }
  }

  /** Fill the form from a call in the wire form (numbers as numbers, bigints or digit strings). */
  function fill(call) {
    for (const input of data.inputs) {
      const v = call === null || call === undefined ? undefined : call[input.name];
      setValue(input, document.getElementById(input.id), v);
    }
    for (const seq of data.sequences) {
      const elements = call === null || call === undefined ? undefined : call[seq.name];
      const fieldset = fieldsetOf(seq);
      fieldset.querySelector("tbody").replaceChildren();
      for (const element of Array.isArray(elements) ? elements : []) {
        const tr = addRow(fieldset);
        for (const field of seq.fields) {
          setValue(field, controlOf(tr, field), element === null ? undefined : element[field.name]);
        }
      }
    }
    run();
  }

  // ---- showing the answer

  /** A record line read back with every number kept as its digits: {num: "…"}. */
  function readJson(text) {
    let i = 0;
    const ws = () => {
      while (" \t\r\n".includes(text[i]) && i < text.length) {
        i += 1;
      }
    };
    const value = () => {
      ws();
      const c = text[i];
      if (c === "{") {
        i += 1;
        const out = {};
        ws();
        if (text[i] === "}") {
          i += 1;
          return out;
        }
        for (;;) {
          ws();
          const key = value();
          ws();
          i += 1; // ':'
          out[key] = value();
          ws();
          if (text[i++] === "}") {
            return out;
          }
        }
      }
      if (c === "[") {
        i += 1;
        const out = [];
        ws();
        if (text[i] === "]") {
          i += 1;
          return out;
        }
        for (;;) {
          out.push(value());
          ws();
          if (text[i++] === "]") {
            return out;
          }
        }
      }
      if (c === '"') {
        const m = /^"(?:[^"\\]|\\.)*"/.exec(text.slice(i));
        i += m[0].length;
        return JSON.parse(m[0]);
      }
      const m = /^(true|false|null|-?[0-9][0-9.eE+-]*)/.exec(text.slice(i));
      i += m[0].length;
      return m[0] === "true" ? true : m[0] === "false" ? false : m[0] === "null" ? null : { num: m[0] };
    };
    return value();
  }

  function grouped(digits) {
    const neg = digits.startsWith("-");
    const body = neg ? digits.slice(1) : digits;
    const [int, frac] = body.split(".");
    const g = int.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
    return (neg ? "-" : "") + g + (frac === undefined ? "" : "." + frac);
  }

  /** steps × step, as a decimal text (a rate's percentage). */
  function decimalText(steps, step) {
    let digits = steps * step.digits;
    let exp = step.exp;
    const neg = digits < 0n;
    let s = (neg ? -digits : digits).toString();
    if (exp >= 0) {
      s = s + "0".repeat(exp);
    } else {
      s = s.padStart(-exp + 1, "0");
      s = s.slice(0, s.length + exp) + "." + s.slice(s.length + exp);
      s = s.replace(/\.?0+$/, "");
    }
    return (neg ? "-" : "") + s;
  }

  function shown(output, v) {
    if (v === null) {
      return "none";
    }
    // A list output: each value of the rows that held, in order.
    if (Array.isArray(v)) {
      return v.length === 0 ? "none" : v.map((x) => shown(output, x)).join(", ");
    }
    if (typeof v === "object" && "num" in v) {
      if (output.kind === "rate") {
        return grouped(decimalText(BigInt(v.num), decimal(output.step))) + "%";
      }
      return grouped(v.num) + (output.unit ? " " + output.unit : "");
    }
    if (typeof v === "string") {
      return output.kind === "string" ? "\u201c" + v + "\u201d" : v;
    }
    return String(v);
  }

  // The wire's JSON of a value: a number's digits as they are, a list element by element.
  const wireText = (v) => {
    if (Array.isArray(v)) {
      return "[" + v.map(wireText).join(",") + "]";
    }
    return v !== null && typeof v === "object" && "num" in v ? v.num : JSON.stringify(v);
  };

  function clearCase() {
    for (const f of board.querySelectorAll(".field")) {
      f.classList.remove("refused");
      const error = f.querySelector(".error");
      error.hidden = true;
      error.textContent = "";
      f.querySelector("input, select").removeAttribute("aria-invalid");
    }
    for (const td of board.querySelectorAll('table.rows td[aria-invalid="true"]')) {
      td.removeAttribute("aria-invalid");
    }
    for (const tr of board.querySelectorAll("tr.fired")) {
      tr.classList.remove("fired");
      tr.removeAttribute("aria-current");
    }
    for (const c of cards) {
      c.classList.remove("answered");
      c.querySelector(".fired").textContent = "";
    }
    formError.hidden = true;
    formError.textContent = "";
    status.textContent = "";
    status.className = "status";
    recordLine.textContent = "";
    for (const output of data.outputs) {
      const dd = document.getElementById(output.id);
      dd.textContent = "\u2014";
      dd.dataset.wire = "";
    }
  }

  /** A refusal of an element's field (`lines[2].quantity is out of range`): mark its cell. */
  function markElement(what) {
    const m = /^(.+)\[(\d+)\]\.(.+?) /.exec(what);
    const seq = m && data.sequences.find((s) => s.name === m[1]);
    const field = seq && seq.fields.find((f) => f.name === m[3]);
    const tr = field && rowsOf(seq)[Number(m[2])];
    if (tr) {
      controlOf(tr, field).closest("td").setAttribute("aria-invalid", "true");
    }
  }

  function refuse(what) {
    // A refusal of one input starts with the input's declared name: show it by that field.
    const input = data.inputs
      .filter((x) => what.startsWith(x.name + " "))
      .sort((a, b) => b.name.length - a.name.length)[0];
    status.className = "status refused";
    if (input) {
      const el = document.getElementById(input.id);
      const field = el.closest(".field");
      field.classList.add("refused");
      const error = field.querySelector(".error");
      error.textContent = what;
      error.hidden = false;
      el.setAttribute("aria-invalid", "true");
    } else {
      markElement(what);
      formError.textContent = what;
      formError.hidden = false;
    }
    status.textContent = "Refused at the door: " + what + ".";
  }

  function run() {
    clearCase();
    let line;
    try {
      line = wire(readCall());
    } catch (e) {
      if (e !== null && typeof e === "object" && e.name === "RuleInputError") {
        refuse(e.what);
      } else if (e !== null && typeof e === "object" && e.name === "RuleContradictionError") {
        status.className = "status contradiction";
        status.textContent = "The rule has no answer for this case: " + e.what + ".";
      } else {
        status.className = "status contradiction";
        status.textContent = "The generated code failed: " + String(e);
      }
      return;
    }
    const record = readJson(line);
    recordLine.textContent = line;
    for (const output of data.outputs) {
      const dd = document.getElementById(output.id);
      const v = record.observed[output.name];
      dd.textContent = shown(output, v);
      dd.dataset.wire = wireText(v);
    }
    for (const fired of record.trace) {
      const card = cardOf.get("table:" + fired.table);
      if (!card) {
        continue;
      }
      const tr = card.querySelector('tr[data-row="' + fired.row.num + '"]');
      if (tr) {
        tr.classList.add("fired");
        tr.setAttribute("aria-current", "true");
        const decided = Array.from(tr.querySelectorAll("td.result")).map((td) => td.textContent);
        card.querySelector(".fired").textContent = "row " + fired.row.num + " \u2192 " + decided.join(", ");
        card.classList.add("answered");
      }
    }
    for (const d of data.decides) {
      const card = cardOf.get(d.decider);
      if (card && d.decider.startsWith("define:") && d.outputs.length > 0) {
        const output = data.outputs.find((o) => o.name === d.outputs[0]);
        card.querySelector(".fired").textContent = "= " + shown(output, record.observed[output.name]);
        card.classList.add("answered");
      }
    }
    status.className = "status answered";
    status.textContent = "Answered by the generated JavaScript; the rows that decided it are lit in their cards.";
  }

  // ---- the two views: the board, and the document it is made of

  const toggle = board.querySelector(".view-toggle");
  const back = document.createElement("button");
  back.type = "button";
  back.className = "back-to-board";
  back.textContent = "Back to the board";
  docView.prepend(back);

  function reading(on) {
    document.body.classList.toggle("reading", on);
    toggle.setAttribute("aria-pressed", on ? "true" : "false");
    if (on) {
      unmountParts();
      back.focus();
    } else {
      mountParts();
      select(selected || cards[0], false);
      toggle.focus();
    }
  }
  toggle.addEventListener("click", () => reading(true));
  back.addEventListener("click", () => reading(false));

  // ---- theme: the reader's setting, unless the host says otherwise (data-theme)

  function theme(t) {
    if (t === "light" || t === "dark") {
      document.documentElement.dataset.theme = t;
    } else {
      delete document.documentElement.dataset.theme;
    }
  }

  board.querySelector("form").addEventListener("input", run);
  // A sequence's rows: one added at the end, or one taken away, and the case runs again.
  board.querySelector("form").addEventListener("click", (e) => {
    const add = e.target.closest(".add-row");
    const remove = e.target.closest(".remove-row");
    if (add) {
      addRow(add.closest("fieldset")).querySelector("input, select").focus();
    } else if (remove) {
      remove.closest("tr").remove();
    } else {
      return;
    }
    run();
  });
  board.querySelector("form").addEventListener("change", run);
  board.querySelector("form").addEventListener("submit", (e) => e.preventDefault());
  mountParts();
  setPane(Math.min(360, workspace.getBoundingClientRect().width * 0.4));
  setDock(Math.max(160, stage.getBoundingClientRect().height * 0.32));
  select(cards[0], false);
  run();
  if (typeof ResizeObserver === "function") {
    new ResizeObserver(() => drawWires()).observe(canvas);
  }
  canvas.addEventListener("scroll", () => drawWires(), { passive: true });
  pane.scrollTop = 0;
  globalThis.rulecPage = { fill, run, theme, readCall };
  document.body.dataset.ready = "true";
}
