/* The story editor, better with JavaScript (docs/editor.md#with-javascript).

   The editor works whole without this file: every button posts its form, answered by a 303.
   This adds: saving by itself within 2 seconds of the last change, and keeping what is not
   saved yet in this browser (offered back after a crash or a closed tab); the buttons'
   answers put in place without a page load; moves done at once, by the buttons, by Alt with
   the arrow keys, Home and End, or by dragging, with focus kept on the moved element and a
   polite live region saying where it went; the browser's time zone chosen in a schedule's
   select (data-browser-zone). Served as a file of the web host: no inline script, no eval,
   no style attribute written as markup. */
(() => {
  "use strict";

  /* Fields of the editor's form that are not the story's: changing them saves nothing. */
  const NOT_STORY = new Set(["form_token", "version", "action", "address", "new_text", "position", "q", "network"]);
  const SAVE_AFTER_MS = 1500;
  const RETRY_AFTER_MS = 10000;
  const ANNOUNCE_AFTER_MS = 500;
  const MOVES = { up: "up", top: "to top", down: "down", bottom: "to bottom" };
  const KEYS = { ArrowUp: "up", ArrowDown: "down", Home: "top", End: "bottom" };
  const OFFLINE = "Not saved: offline? Your changes are kept in this browser.";

  const $ = (selector, root = document) => root.querySelector(selector);
  const $$ = (selector, root = document) => [...root.querySelectorAll(selector)];
  const editorForm = () => $("form.editor");
  const list = () => $("[data-elements]");
  const items = () => $$("[data-elements] > li");
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  /* A form's address: its property is shadowed by the buttons named "action". */
  const addressOf = (form) => new URL(form.getAttribute("action") || "", location.href).href;
  const versionOf = (form) => form.elements.namedItem("version");
  const hhmm = (time) => new Date(time).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });

  function make(tag, properties = {}, ...children) {
    const made = document.createElement(tag);
    for (const [name, value] of Object.entries(properties)) {
      if (name in made) made[name] = value;
      else made.setAttribute(name, value);
    }
    made.append(...children);
    return made;
  }

  /* What the page says to screen readers, after a pause: repeated moves say it once. */
  const live = make("div", { id: "editor-live", className: "visually-hidden", "aria-live": "polite" });
  document.body.append(live);
  let announcing = 0;
  function announce(text) {
    clearTimeout(announcing);
    announcing = setTimeout(() => {
      live.textContent = live.textContent === text ? `${text}\u00a0` : text;
    }, ANNOUNCE_AFTER_MS);
  }

  function status(text) {
    const line = $("#editor-saved");
    if (line) line.textContent = text;
  }

  function place(target) {
    if (!target) return false;
    if (!target.matches("a[href], button, input, select, textarea, [tabindex]")) target.tabIndex = -1;
    target.focus();
    return document.activeElement === target;
  }

  /* ---- What the story's form holds, and the copy kept in this browser ---- */

  function storyValues(form) {
    return [...new FormData(form)].filter(([name, value]) => typeof value === "string" && !NOT_STORY.has(name));
  }

  function bodyOf(pairs) {
    const body = new URLSearchParams();
    for (const [name, value] of pairs) if (typeof value === "string") body.append(name, value);
    return body;
  }

  const keyOf = (form) => `storycore-editor:${addressOf(form)}`;

  function kept(form) {
    try {
      const backup = JSON.parse(localStorage.getItem(keyOf(form)) || "null");
      return backup && Array.isArray(backup.values) ? backup : null;
    } catch {
      return null;
    }
  }

  function keep(form) {
    try {
      const values = storyValues(form);
      if (same(values, state.saved)) localStorage.removeItem(keyOf(form));
      else localStorage.setItem(keyOf(form), JSON.stringify({ version: versionOf(form).value, time: Date.now(), values }));
    } catch {
      /* no storage here (a private window, or full): the autosave still runs */
    }
  }

  function forget(form) {
    try {
      localStorage.removeItem(keyOf(form));
    } catch {
      /* nothing kept */
    }
  }

  /* ---- Saving by itself ---- */

  const state = { saved: null, timer: 0, stopped: false, chain: Promise.resolve(), passing: null };

  /* One request at a time, in order: a save or a button's answer never races another. */
  function queue(task) {
    state.chain = state.chain.then(task).catch(() => status(OFFLINE));
    return state.chain;
  }

  function changed() {
    const form = editorForm();
    if (!form) return;
    keep(form);
    clearTimeout(state.timer);
    if (!state.stopped) state.timer = setTimeout(autosave, SAVE_AFTER_MS);
  }

  function autosave() {
    clearTimeout(state.timer);
    const form = editorForm();
    if (form && !state.stopped && !same(storyValues(form), state.saved)) queue(() => save(form));
  }

  async function post(form, body) {
    const response = await fetch(addressOf(form), {
      method: "POST",
      body,
      credentials: "same-origin",
      redirect: "follow",
      headers: { Accept: "text/html" },
    });
    const page = new DOMParser().parseFromString(await response.text(), "text/html");
    const back = response.redirected && new URL(response.url).pathname === new URL(addressOf(form)).pathname;
    return { response, page, saved: response.ok && back };
  }

  function refusal(page) {
    const problems = $$("#problems li", page).map((item) => item.textContent.trim());
    return problems.join(" ") || ($("h1", page)?.textContent.trim() ?? "");
  }

  /* Takes the version a save made into every form of the page that held the older one. */
  function newVersion(page, older) {
    const version = $("form.editor input[name=version]", page)?.value;
    if (!version) return;
    for (const input of $$("main input[name=version]")) if (input.value === older) input.value = version;
  }

  async function save(form) {
    if (form !== editorForm() || state.stopped) return false;
    const values = storyValues(form);
    if (same(values, state.saved)) return true;
    const body = bodyOf([...new FormData(form)]);
    body.set("action", "save");
    let answer;
    try {
      answer = await post(form, body);
    } catch {
      status(OFFLINE);
      clearTimeout(state.timer);
      state.timer = setTimeout(autosave, RETRY_AFTER_MS);
      return false;
    }
    const { response, page, saved } = answer;
    if (saved) {
      newVersion(page, body.get("version"));
      state.saved = values;
      if (same(storyValues(form), values)) forget(form);
      status(`Saved at ${hhmm(Date.now())}`);
      return true;
    }
    if (response.status === 409 && $("main", page)) {
      state.stopped = true;
      swap(page, body);
      place($("#conflict-heading"));
      return false;
    }
    if (response.redirected) {
      status("Not saved: you are signed out. Your changes are kept in this browser.");
      state.stopped = true;
    } else status(`Not saved: ${refusal(page)}`);
    return false;
  }

  window.addEventListener("online", autosave);

  /* ---- Putting an answer in place of the page's main ---- */

  /* The new main, with what was typed while the request was out put back into it
     (``posted``: what the form held when it was sent, or null when the form was not sent).
     Returns the story's values as the answer holds them, before any is put back. */
  function swap(page, posted) {
    const form = editorForm();
    const now = form ? new Map(new FormData(form)) : new Map();
    document.title = page.title;
    $("main").replaceWith(document.adoptNode($("main", page)));
    const fresh = editorForm();
    if (!fresh) return null;
    const arrived = storyValues(fresh);
    for (const [name, value] of now) {
      const field = fresh.elements.namedItem(name);
      const typed = field && (field.tagName === "TEXTAREA" || (field.tagName === "INPUT" && /^(text|url|search|email)$/.test(field.type)));
      if (typed && posted && posted.has(name) && posted.get(name) !== value && typeof value === "string") field.value = value;
    }
    enhance();
    return arrived;
  }

  /* Where focus goes once the answer to ``verb`` on ``id`` is in place; ``focused``: what
     had it when the form was sent (a field Enter was pressed in, say). */
  function focusAfter(verb, id, button, before, focused) {
    const all = items();
    const at = all.findIndex((item) => item.dataset.elementId === id);
    const neighbour = verb === "remove" ? all[at + 1] || all[at - 1] : null;
    const neighbourId = neighbour ? neighbour.dataset.elementId : "";
    return () => {
      if (place($("#problems")) || place($("#conflict-heading"))) return;
      if (verb === "remove") {
        place(neighbourId ? $(`#element-${CSS.escape(neighbourId)} .editor-element-name`) : $("#elements-heading"));
        return;
      }
      if (verb.startsWith("add-")) {
        const added = items().find((item) => !before.has(item.dataset.elementId));
        if (added) {
          place($(".editor-element-name", added));
          announce(`Added ${nameOf(added)} at position ${items().indexOf(added) + 1} of ${items().length}.`);
          return true;
        }
      }
      if (verb === "preview-add" && place($("#preview-heading"))) return;
      if (verb === "find-sources") {
        const found = $$(".editor-source").length;
        announce(found ? `Found ${found} source${found === 1 ? "" : "s"}.` : "No source holds these words.");
      }
      const field = focused && focused !== button && focused.id && document.getElementById(focused.id);
      const again = button && $$("main button").find((b) => b.name === button.name && b.value === button.value);
      place(field || again || $("main h1"));
    };
  }

  async function act(form, button, focused) {
    if (form !== editorForm()) return;
    clearTimeout(state.timer);
    const body = bodyOf([...new FormData(form)]);
    if (button && button.name) body.append(button.name, button.value);
    const [verb, id] = (body.get("action") || "save").split(/:(.*)/s);
    const before = new Set(items().map((item) => item.dataset.elementId));
    const focus = focusAfter(verb, id || "", button, before, focused);
    form.setAttribute("aria-busy", "true");
    let answer;
    try {
      answer = await post(form, body);
    } catch {
      form.removeAttribute("aria-busy");
      status(OFFLINE);
      announce(OFFLINE);
      return;
    }
    const { response, page, saved } = answer;
    if (!$("main", page) || (response.ok && !$("main form.editor", page))) {
      /* not an editor's answer (signed out meanwhile, say): the form posts as it would bare */
      state.passing = form;
      form.requestSubmit(button && button.form === form ? button : null);
      state.passing = null;
      return;
    }
    if (saved) history.replaceState(null, "", response.url);
    const arrived = swap(page, body);
    if (saved) {
      state.stopped = false;
      state.saved = arrived;
      if (same(storyValues(editorForm()), arrived)) forget(editorForm());
    }
    if (response.status === 409) state.stopped = true;
    const notice = $(".notice-area")?.textContent.trim();
    if (focus() !== true && notice) announce(notice);
    if (!saved && response.ok) changed();
    else if (saved && !same(storyValues(editorForm()), state.saved)) changed();
  }

  /* ---- Moving elements at once ---- */

  const nameOf = (item) =>
    item.dataset.elementName || $(".editor-element-name", item)?.textContent.replace(/^\d+\.\s*/, "") || "the element";

  function moveButtons(item) {
    return $$(".editor-element-actions button[name=action]", item).filter((b) => b.value.split(":")[0] in MOVES);
  }

  /* Every item gets the four move buttons (the page leaves out those that cannot move it);
     those that cannot are hidden, and shown again when a move lets them. */
  function completeButtons(item) {
    const group = $(".editor-element-actions", item);
    if (!group) return;
    const id = item.dataset.elementId;
    const buttons = new Map(moveButtons(item).map((b) => [b.value.split(":")[0], b]));
    const remove = $$("button[name=action]", group).find((b) => b.value.startsWith("remove:")) || null;
    for (const [verb, words] of Object.entries(MOVES)) {
      const button =
        buttons.get(verb) ||
        make("button", { type: "submit", name: "action", value: `${verb}:${id}` }, "Move", make("span", { className: "visually-hidden" }, ` ${nameOf(item)}`), ` ${words}`);
      group.insertBefore(button, remove);
    }
  }

  function renumber() {
    const all = items();
    all.forEach((item, index) => {
      const heading = $(".editor-element-name", item);
      if (heading) heading.textContent = heading.textContent.replace(/^\d+\./, `${index + 1}.`);
      for (const button of moveButtons(item)) {
        const verb = button.value.split(":")[0];
        button.hidden = (index === 0 && (verb === "up" || verb === "top")) || (index === all.length - 1 && (verb === "down" || verb === "bottom"));
      }
    });
    const position = $("#position");
    if (!position) return;
    const options = new Map($$("option", position).filter((o) => o.value.startsWith("after:")).map((o) => [o.value.slice(6), o]));
    all.forEach((item, index) => {
      const option = options.get(item.dataset.elementId);
      if (!option) return;
      option.textContent = option.textContent.replace(/^After \d+\./, `After ${index + 1}.`);
      position.append(option);
    });
  }

  function moved(item) {
    const all = items();
    announce(`Moved ${nameOf(item)} to position ${all.indexOf(item) + 1} of ${all.length}.`);
    changed();
  }

  function move(item, verb, control) {
    const all = items();
    const at = all.indexOf(item);
    const to = { up: at - 1, down: at + 1, top: 0, bottom: all.length - 1 }[verb];
    if (at < 0 || to < 0 || to >= all.length || to === at) {
      if (at >= 0) announce(`${nameOf(item)} is already at position ${at + 1} of ${all.length}.`);
      return;
    }
    list().insertBefore(item, to < at ? all[to] : all[to].nextSibling);
    renumber();
    /* Focus stays on the control used; a move button that no longer applies hands it over to
       the one that moves the element back. */
    let target = control && item.contains(control) ? control : item;
    if (target.hidden) {
      const back = verb === "up" || verb === "top" ? ["down", "bottom"] : ["up", "top"];
      target = moveButtons(item).find((b) => back.includes(b.value.split(":")[0]) && !b.hidden) || $(".editor-element-name", item);
    }
    place(target);
    moved(item);
  }

  document.addEventListener("keydown", (event) => {
    const verb = KEYS[event.key];
    if (!verb || !event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const target = event.target;
    if (!(target instanceof Element) || target.matches("input, textarea, select, [contenteditable]")) return;
    const item = target.closest("[data-elements] > li");
    if (!item) return;
    event.preventDefault();
    move(item, verb, target);
  });

  /* Dragging, by a handle the mouse finds; the keyboard has the buttons and the keys. */
  let dragged = null;
  let draggedFrom = -1;

  document.addEventListener("dragstart", (event) => {
    const handle = event.target instanceof Element && event.target.closest(".editor-drag");
    const item = handle && handle.closest("[data-elements] > li");
    if (!item) return;
    dragged = item;
    draggedFrom = items().indexOf(item);
    event.dataTransfer.effectAllowed = "move";
    event.dataTransfer.setData("text/plain", nameOf(item));
    event.dataTransfer.setDragImage(item, 16, 16);
    item.classList.add("editor-dragging");
  });
  document.addEventListener("dragover", (event) => {
    const over = dragged && event.target instanceof Element && event.target.closest("[data-elements] > li");
    if (!over) return;
    event.preventDefault();
    if (over === dragged) return;
    const box = over.getBoundingClientRect();
    list().insertBefore(dragged, event.clientY > box.top + box.height / 2 ? over.nextSibling : over);
  });
  document.addEventListener("drop", (event) => {
    if (dragged) event.preventDefault();
  });
  document.addEventListener("dragend", () => {
    const item = dragged;
    dragged = null;
    if (!item) return;
    item.classList.remove("editor-dragging");
    renumber();
    if (items().indexOf(item) !== draggedFrom) moved(item);
  });

  /* ---- The form's buttons, and the page's other forms ---- */

  document.addEventListener("submit", (event) => {
    const form = event.target;
    const editor = editorForm();
    if (!(form instanceof HTMLFormElement) || !editor || state.passing === form) return;
    const button = event.submitter;
    if (form !== editor) {
      /* Another form (publishing, signing out) goes once what is typed is saved. */
      if (state.stopped || same(storyValues(editor), state.saved)) return;
      event.preventDefault();
      queue(async () => {
        if (!(await save(editor))) return;
        state.passing = form;
        form.requestSubmit(button && button.form === form ? button : null);
        state.passing = null;
      });
      return;
    }
    event.preventDefault();
    const [verb, id] = button && button.name === "action" ? button.value.split(/:(.*)/s) : ["save", ""];
    const item = id && items().find((li) => li.dataset.elementId === id);
    if (verb in MOVES && item) move(item, verb, button);
    else {
      const focused = document.activeElement;
      queue(() => act(form, button, focused));
    }
  });

  document.addEventListener("input", (event) => {
    if (event.target instanceof Element && event.target.form === editorForm() && !NOT_STORY.has(event.target.name)) changed();
  });
  document.addEventListener("change", (event) => {
    if (event.target instanceof Element && event.target.form === editorForm() && !NOT_STORY.has(event.target.name)) changed();
  });

  /* ---- Unsaved changes from an earlier visit ---- */

  function offerBackup(form) {
    const backup = kept(form);
    if (!backup) return;
    if (same(backup.values, storyValues(form))) {
      forget(form);
      return;
    }
    const version = versionOf(form).value;
    const heading = `Unsaved changes from ${new Date(backup.time).toLocaleString([], { dateStyle: "medium", timeStyle: "short" })} were kept in this browser`;
    const older = String(backup.version) !== version;
    const said = older
      ? `They were made to version ${backup.version}, and the story was saved since (version ${version}). Restoring them saves nothing over the newer version: the editor shows what it changed and keeps your changes in the form to apply again.`
      : "They were not saved before the page was closed. Restore them to save them now, or discard them.";
    const restore = make("button", { type: "button", className: "primary" }, "Restore them");
    const discard = make("button", { type: "button" }, "Discard them");
    const region = make(
      "section",
      { className: "editor-backup", id: "editor-backup", "aria-labelledby": "editor-backup-heading" },
      make("h2", { id: "editor-backup-heading" }, heading),
      make("p", {}, said),
      make("p", { className: "editor-backup-buttons" }, restore, " ", discard),
    );
    form.before(region);
    announce(`${heading}.`);
    restore.addEventListener("click", () => queue(() => restoreBackup(form, backup)));
    discard.addEventListener("click", () => {
      forget(form);
      region.remove();
      place($("main h1"));
      announce("The unsaved changes are discarded.");
    });
  }

  /* Posts the changes kept, with the version they were made to: saved if the story has not
     changed since, else the conflict, with nothing written over. */
  async function restoreBackup(form, backup) {
    if (form !== editorForm()) return;
    const pairs = [["form_token", form.elements.namedItem("form_token").value], ["version", String(backup.version)], ...backup.values, ["action", "save"]];
    const body = bodyOf(pairs);
    const { response, page, saved } = await post(form, body);
    if (!$("main form.editor", page)) {
      status(`Not restored: ${refusal(page)}`);
      return;
    }
    if (saved) history.replaceState(null, "", response.url);
    const arrived = swap(page, null);
    if (saved) {
      state.saved = arrived;
      state.stopped = false;
      forget(editorForm());
      announce("Your unsaved changes are restored and saved.");
    } else {
      if (response.status === 409) state.stopped = true;
      keep(editorForm());
    }
    place($("#conflict-heading")) || place($("#problems")) || place($("main h1"));
  }

  /* ---- Every new main: what the script adds to the page ---- */

  function enhance() {
    for (const select of $$("select[data-browser-zone]")) {
      const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
      if (zone && $$("option", select).some((option) => option.value === zone)) select.value = zone;
    }
    const form = editorForm();
    if (!form) return;
    const save = $(".editor-save", form);
    if (save && !$("#editor-saved")) save.after(make("p", { id: "editor-saved", className: "editor-saved", role: "status" }));
    const elements = list();
    if (!elements) return;
    if (!$("#editor-keys")) {
      elements.before(
        make("p", { id: "editor-keys", className: "hint" },
          "On an element's buttons, Alt+Up and Alt+Down move it, Alt+Home and Alt+End move it to the top and the bottom. Or drag it by its handle."),
      );
    }
    for (const item of items()) {
      completeButtons(item);
      if (!$(".editor-drag", item)) item.prepend(make("span", { className: "editor-drag", draggable: true, "aria-hidden": "true", title: "Drag to reorder" }, "\u283f"));
    }
    renumber();
  }

  const form = editorForm();
  enhance();
  if (form) {
    state.saved = storyValues(form);
    offerBackup(form);
  }
})();
