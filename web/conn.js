// @ts-check
// One WebSocket to a game (docs/protocol.md): a seat's (with its token) or a spectator's.
// Reconnects with backoff when the socket closes, except when the server says the token or
// the game is unknown; resends the act in flight after a reconnection (the server applies
// a client_id only once). Views come as changes (`views=changes`): each is made whole here,
// from the views before, so the rest of the interface sees whole views.

import { socketUrl, freshClientId } from "./api.js";

// 4401 a bad token, 4404 an unknown game, 4409 a newer connection of the seat took over (in
// another window: reconnecting would push that one out in turn), 4500 a damaged game.
const FATAL = new Set([4401, 4404, 4409, 4500]);

/**
 * @typedef {object} ConnectionHandlers
 * @property {(message: import("./types.js").View) => void} view
 * @property {(message: import("./types.js").ErrorMessage) => void} error
 * @property {(code: number) => void} fatal
 * @property {(online: boolean) => void} [status]
 */

export class Connection {
  /**
   * `handlers`: `view(message)`, `error(message)` (a protocol error), `fatal(code)` (closed
   * for good: 4401, 4404, 4409 or 4500), `status(online)` (the socket opened or closed).
   * @param {number} gameId
   * @param {string | null} seat `null`: a spectator's
   * @param {string | null} token
   * @param {ConnectionHandlers} handlers
   */
  constructor(gameId, seat, token, handlers) {
    this.gameId = gameId;
    this.seat = seat;
    this.token = token;
    this.handlers = handlers;
    /** @type {WebSocket | null} */
    this.socket = null;
    this.closed = false;
    this.retries = 0;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
    /** @type {import("./types.js").Act | null} */
    this.inflight = null;
    this.sentAt = 0;
    this.online = false;
    /** The observation and the seats' list of the last view, which the next one changes. */
    this.kept = { observation: null, seats: /** @type {any} */ (null) };
    this.open();
  }

  open() {
    if (this.closed) return;
    const socket = new WebSocket(socketUrl(this.gameId, this.token));
    this.socket = socket;
    // A new connection's first view is whole.
    this.kept = { observation: null, seats: null };
    socket.addEventListener("open", () => {
      if (socket !== this.socket) return;
      this.retries = 0;
      this.setOnline(true);
      if (this.inflight) socket.send(JSON.stringify(this.inflight));
    });
    socket.addEventListener("message", (event) => {
      if (socket !== this.socket) return;
      /** @type {import("./types.js").View | import("./types.js").ErrorMessage} */
      let message;
      try {
        message = JSON.parse(event.data);
      } catch (e) {
        return;
      }
      if (message.type === "view") {
        message = whole(message, this.kept);
        if (this.inflight && (message.ack === this.inflight.client_id || message.version > this.inflight.version)) {
          this.inflight = null;
        }
        this.handlers.view(message);
      } else if (message.type === "error") {
        if (this.inflight && message.client_id === this.inflight.client_id) this.inflight = null;
        this.handlers.error(message);
      }
    });
    socket.addEventListener("close", (event) => {
      if (socket !== this.socket) return;
      this.socket = null;
      this.setOnline(false);
      if (this.closed) return;
      if (FATAL.has(event.code)) {
        this.closed = true;
        this.handlers.fatal(event.code);
        return;
      }
      const delay = Math.min(10000, 500 * 2 ** this.retries) * (0.75 + Math.random() / 2);
      this.retries += 1;
      this.timer = setTimeout(() => this.open(), delay);
    });
    // Failures are followed by a close event, which schedules the next try.
    socket.addEventListener("error", () => {});
  }

  /** @param {boolean} online */
  setOnline(online) {
    if (this.online === online) return;
    this.online = online;
    if (this.handlers.status) this.handlers.status(online);
  }

  /**
   * Sends `action` for the view of version `version`; false when an act is still unanswered.
   * @param {string} action
   * @param {number} version
   */
  act(action, version) {
    // An act unanswered for long (a lost message) no longer blocks the next one.
    if (this.inflight && Date.now() - this.sentAt < 10000) return false;
    this.sentAt = Date.now();
    this.inflight = { type: "act", client_id: freshClientId(), version, action };
    if (this.socket && this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(this.inflight));
    return true;
  }

  busy() {
    return this.inflight !== null;
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.socket) {
      const socket = this.socket;
      this.socket = null;
      if (socket.readyState === WebSocket.CONNECTING) socket.addEventListener("open", () => socket.close(1000));
      else socket.close(1000);
    }
  }
}

/**
 * `view` made whole: its `observation_changes` merged into the observation kept (each field
 * replaced, but `players` of the same length merged player by player, field by field), its
 * seats' list the one kept when it leaves it out; `kept` becomes this view's. New objects:
 * the views before are left as they were.
 * @param {any} view
 * @param {{observation: any, seats: any}} kept
 * @returns {import("./types.js").View}
 */
export function whole(view, kept) {
  const changes = view.observation_changes;
  if (changes && kept.observation) {
    const observation = { ...kept.observation };
    for (const [key, value] of Object.entries(changes)) {
      const before = observation[key];
      if (key === "players" && Array.isArray(before) && Array.isArray(value) && before.length === value.length) {
        observation.players = before.map((player, i) => ({ ...player, ...value[i] }));
      } else {
        observation[key] = value;
      }
    }
    delete view.observation_changes;
    view.observation = observation;
  }
  if (view.seats === undefined) view.seats = kept.seats;
  kept.observation = view.observation;
  kept.seats = view.seats;
  return view;
}
