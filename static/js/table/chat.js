// The table's chat: players talk among themselves, spectators among themselves
// (the server keeps the two apart). Messages arrive in the hello answer (the last 50)
// and as chat frames; a host's hidden message comes again, blanked. A message of one
// of the house's hosts (staff: true) carries a badge no guest can get by a name.

import { el, gettext } from "./format.js";

export class Chat {
  constructor({ log, form, input, title }, send) {
    this.log = log;
    this.form = form;
    this.input = input;
    this.title = title;
    this.send = send;
    this.seen = new Map();
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.submit();
    });
  }

  async submit() {
    const text = this.input.value.trim();
    if (!text) return;
    this.input.disabled = true;
    try {
      await this.send({ t: "chat", text });
      this.input.value = "";
    } catch (error) {
      this.note(error.message || gettext("The message was not sent."));
    } finally {
      this.input.disabled = false;
      this.input.focus();
    }
  }

  /** Players' or spectators' chat, and whether this person may write. */
  setMode(channel, canWrite) {
    this.title.textContent = channel === "players" ? gettext("Players' chat") : gettext("Spectators' chat");
    this.form.hidden = !canWrite;
  }

  replaceAll(messages) {
    this.seen.clear();
    this.log.replaceChildren();
    for (const message of messages || []) this.add(message);
  }

  add(message) {
    const item = el("li", { dataset: { message: message.id }, class: message.hidden ? "hidden-message" : null },
      el("strong", {}, message.name), " ",
      message.staff ? el("span", { class: "staff-badge", title: gettext("One of the hosts of the house") },
        gettext("host")) : null, message.staff ? " " : null,
      message.hidden ? el("em", {}, gettext("message hidden by a host")) : message.text);
    const old = this.seen.get(message.id);
    if (old) old.replaceWith(item);
    else this.log.append(item);
    this.seen.set(message.id, item);
    this.log.scrollTop = this.log.scrollHeight;
  }

  note(text) {
    this.log.append(el("li", { class: "chat-note" }, text));
    this.log.scrollTop = this.log.scrollHeight;
  }
}
