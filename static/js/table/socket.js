// The table socket (docs/protocol.md): hello, then state/update frames; pings that keep
// presence fresh and notice a dead connection; reconnection with `since` so nothing
// missed is lost; requests matched to their ack or error by id.

const PING_EVERY = 5000; // ms between pings
const RATE_RETRIES = 3; // a request refused by the rate limit is sent again this many times
const DEAD_AFTER = 15000; // ms without any frame: the connection is dead, reconnect
const ANSWER_WITHIN = 10000; // ms for an ack or an error before a request fails
const BACKOFF = [500, 1000, 2000, 4000, 8000];

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
   * handlers: {frame(frame), status(state)} where state is "connecting", "open" or "closed".
   */
  constructor(path, invite, handlers) {
    this.path = path;
    this.invite = invite;
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
    ws.addEventListener("open", () => {
      if (this.ws !== ws) return;
      this.attempt = 0;
      this.lastFrameAt = Date.now();
      // A move is answered by the update it made (its `ack`): one frame, not two.
      const hello = { t: "hello", acks: "update" };
      if (this.version !== null) hello.since = this.version;
      if (this.invite) hello.invite = this.invite;
      if (this.asSeat !== null) hello.as = this.asSeat;
      ws.send(JSON.stringify(hello));
      this.handlers.status("open");
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
    ws.addEventListener("close", () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.failPending();
      this.handlers.status("closed");
      if (this.stopped) return;
      const delay = BACKOFF[Math.min(this.attempt, BACKOFF.length - 1)];
      this.attempt += 1;
      setTimeout(() => this.connect(), delay);
    });
  }

  /** Drop the socket and open a new one (a dead connection, a request without answer). */
  reconnect() {
    const ws = this.ws;
    if (ws) ws.close();
  }

  tick() {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return;
    if (Date.now() - this.lastFrameAt > DEAD_AFTER) {
      this.reconnect();
      return;
    }
    this.ws.send(JSON.stringify({ t: "ping" }));
  }

  receive(frame) {
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
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
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
