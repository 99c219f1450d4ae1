// The table socket (docs/protocol.md): hello, then state/update frames; pings that keep
// presence fresh and notice a dead connection; reconnection with `since` so nothing
// missed is lost; requests matched to their ack or error by id.
//
// The socket is open only once the `state` answering its hello has come: a refused
// hello is sent again (after `retry_after`, or a pause), and a socket whose hello has
// no answer within HELLO_WITHIN is dropped and opened anew. Nothing else is sent
// before: a socket that answers pings but never sent the table is a dead one.

const PING_EVERY = 5000; // ms between pings
const RATE_RETRIES = 3; // a request refused by the rate limit is sent again this many times
const DEAD_AFTER = 15000; // ms without any frame: the connection is dead, reconnect
const ANSWER_WITHIN = 10000; // ms for an ack or an error before a request fails
const HELLO_WITHIN = 10000; // ms for the state answering hello: else reconnect
const BACKOFF = [500, 1000, 2000, 4000, 8000];
const TOO_MANY_PAUSE = 30000; // ms before trying again when the server said too many sockets
// Close codes (docs/protocol.md, "Close codes").
export const CLOSE_SIGNED_OUT = 4401;
export const CLOSE_TOO_MANY = 4429;
// A hello refused for these will be refused again: the page says so and stops.
const FINAL_REFUSALS = new Set(["not_found", "private_table"]);

export class RequestError extends Error {
  constructor(frame) {
    super(frame.message || frame.code);
    this.frame = frame;
    this.code = frame.code;
  }
}

export class TableSocket {
  /**
   * path: "/ws/tables/12/"; invite: the private table's token or "";
   * handlers: {frame(frame), status(state)} where state is "connecting", "open", "closed",
   * "signed_out" (the server closed the socket: the session or token no longer stands;
   * no reconnection) or "too_many" (this person has too many sockets open).
   */
  constructor(path, invite, handlers, account = false) {
    this.path = path;
    this.invite = invite;
    // The page was opened by a signed-in account: every hello says so, and a socket
    // that is no longer that account's (signed out in another tab while this one was
    // reconnecting) is closed as signed out, never opened as a visitor's.
    this.account = account;
    this.handlers = handlers;
    this.version = null; // the last version applied; sent as `since` on reconnection
    this.pending = new Map();
    this.nextId = 1;
    this.attempt = 0;
    this.ws = null;
    this.lastFrameAt = 0;
    this.stopped = false;
    this.pinger = null;
    this.asSeat = null; // pass-and-play: the seat this socket sees and acts as (-1: none), sent in hello
    this.opened = false; // the state answering this socket's hello has come
    this.helloId = null; // the id of the hello waiting for its state
    this.helloSentAt = 0;
    this.helloTries = 0;
  }

  start() {
    this.stopped = false;
    this.connect();
    this.pinger = setInterval(() => this.tick(), PING_EVERY);
    document.addEventListener("visibilitychange", this.onVisible);
  }

  stop() {
    this.stopped = true;
    clearInterval(this.pinger);
    document.removeEventListener("visibilitychange", this.onVisible);
    if (this.ws) this.ws.close();
  }

  onVisible = () => {
    // A phone that slept may hold a socket that is long dead: check at once.
    if (document.visibilityState === "visible") this.tick();
  };

  url() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    return `${scheme}://${location.host}${this.path}`;
  }

  connect() {
    if (this.stopped) return;
    this.handlers.status("connecting");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    this.opened = false;
    ws.addEventListener("open", () => {
      if (this.ws !== ws) return;
      this.lastFrameAt = Date.now();
      this.helloTries = 0;
      this.sayHello(ws);
    });
    ws.addEventListener("message", (event) => {
      if (this.ws !== ws) return;
      this.lastFrameAt = Date.now();
      let frame;
      try {
        frame = JSON.parse(event.data);
      } catch {
        return;
      }
      this.receive(frame);
    });
    ws.addEventListener("close", (event) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.opened = false;
      this.failPending();
      if (event.code === CLOSE_SIGNED_OUT) {
        // Reconnecting would silently open the table as somebody else (a visitor).
        this.stop();
        this.handlers.status("signed_out");
        return;
      }
      this.handlers.status(event.code === CLOSE_TOO_MANY ? "too_many" : "closed");
      if (this.stopped) return;
      const delay = event.code === CLOSE_TOO_MANY ? TOO_MANY_PAUSE : BACKOFF[Math.min(this.attempt, BACKOFF.length - 1)];
      this.attempt += 1;
      setTimeout(() => this.connect(), delay);
    });
  }

  sayHello(ws) {
    if (this.ws !== ws || ws.readyState !== WebSocket.OPEN || this.opened) return;
    // A move is answered by the update it made (its `ack`): one frame, not two.
    const hello = { t: "hello", id: `h${this.nextId++}`, acks: "update" };
    if (this.version !== null) hello.since = this.version;
    if (this.invite) hello.invite = this.invite;
    if (this.asSeat !== null) hello.as = this.asSeat;
    if (this.account) hello.account = true;
    this.helloId = hello.id;
    this.helloSentAt = Date.now();
    ws.send(JSON.stringify(hello));
  }

  /** The hello was refused: say it again when it may work, or give up and say why. */
  helloRefused(frame) {
    const ws = this.ws;
    this.helloId = null;
    if (FINAL_REFUSALS.has(frame.code)) {
      this.stop();
      this.handlers.frame(frame);
      return;
    }
    if (frame.code === "not_your_seat" && this.asSeat !== null) this.asSeat = -1; // that seat is no longer ours: watch
    let delay = BACKOFF[Math.min(this.helloTries, BACKOFF.length - 1)];
    if (frame.code === "rate_limited") delay = Math.max(0.05, Number(frame.retry_after) || 1) * 1000;
    this.helloTries += 1;
    this.helloSentAt = Date.now() + delay; // the wait is not the server's silence
    setTimeout(() => this.sayHello(ws), delay);
  }

  /** Drop the socket and open a new one (a dead connection, a request without answer). */
  reconnect() {
    const ws = this.ws;
    if (ws) ws.close();
  }

  tick() {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return;
    if (!this.opened) {
      // No table yet: nothing but hello goes out, and a hello without answer is a dead socket.
      if (Date.now() - this.helloSentAt > HELLO_WITHIN) this.reconnect();
      return;
    }
    if (Date.now() - this.lastFrameAt > DEAD_AFTER) {
      this.reconnect();
      return;
    }
    this.ws.send(JSON.stringify({ t: "ping" }));
  }

  receive(frame) {
    if (this.helloId !== null && frame.id === this.helloId) {
      if (frame.t === "error") {
        this.helloRefused(frame);
        return;
      }
      if (frame.t === "state") {
        this.helloId = null;
        this.opened = true;
        this.attempt = 0;
        this.handlers.status("open");
      }
    }
    if (frame.t === "ack" || (frame.t === "error" && frame.id !== undefined && frame.id !== null)) {
      const waiting = this.pending.get(frame.id);
      if (waiting) {
        this.pending.delete(frame.id);
        clearTimeout(waiting.timer);
        if (frame.t === "ack") waiting.resolve(frame);
        else waiting.reject(new RequestError(frame));
        return;
      }
    }
    if (frame.t === "state" && frame.id !== undefined && frame.id !== null) {
      // A state answers a sync or an `as`: it settles that request, and is applied.
      const waiting = this.pending.get(frame.id);
      if (waiting) {
        this.pending.delete(frame.id);
        clearTimeout(waiting.timer);
        waiting.resolve(frame);
      }
    }
    if (frame.t === "update" && frame.ack) {
      const waiting = this.pending.get(frame.ack.id);
      if (waiting) {
        this.pending.delete(frame.ack.id);
        clearTimeout(waiting.timer);
        waiting.resolve({ t: "ack", id: frame.ack.id, v: frame.ack.v });
      }
    }
    if (frame.t === "state" || frame.t === "update") {
      if (this.version !== null && frame.v < this.version) return; // versions only grow
      if (this.version !== null && frame.t === "update" && this.missed(frame)) {
        // A gap the events do not cover: ask for everything since what we have.
        this.send({ t: "sync", since: this.version }).catch(() => {});
      }
      this.version = frame.v;
    }
    this.handlers.frame(frame);
  }

  missed(frame) {
    if (frame.full || frame.v <= this.version + 1) return false;
    const events = frame.events || [];
    return !events.some((event) => event.v === this.version + 1);
  }

  /** Send a request; resolves with its ack, rejects with a RequestError. */
  /** A request and its answer. One the server did not handle because of its rate limit
   * (`rate_limited`) is sent again once `retry_after` has passed, a few times at most. */
  async send(message) {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await this.sendOnce(message);
      } catch (error) {
        const frame = error && error.frame;
        if (!frame || frame.code !== "rate_limited" || attempt >= RATE_RETRIES) throw error;
        await new Promise((wake) => setTimeout(wake, Math.max(0.05, Number(frame.retry_after) || 1) * 1000));
      }
    }
  }

  sendOnce(message) {
    return new Promise((resolve, reject) => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN || !this.opened) {
        reject(new RequestError({ code: "offline", message: "" }));
        return;
      }
      const id = `r${this.nextId++}`;
      const timer = setTimeout(() => {
        if (this.pending.delete(id)) {
          reject(new RequestError({ code: "no_answer", message: "" }));
          this.reconnect();
        }
      }, ANSWER_WITHIN);
      this.pending.set(id, { resolve, reject, timer });
      this.ws.send(JSON.stringify({ ...message, id }));
    });
  }

  failPending() {
    for (const [id, waiting] of this.pending) {
      clearTimeout(waiting.timer);
      waiting.reject(new RequestError({ code: "offline", message: "" }));
      this.pending.delete(id);
    }
  }
}
