// @ts-check
// The server's HTTP API (docs/protocol.md) and the seat tokens this browser holds.

/** An error answered by the server: `code` from the protocol's table, `message` in English. */
export class ApiError extends Error {
  /**
   * @param {string} code
   * @param {string} message
   * @param {number} status the HTTP status (0: no answer)
   */
  constructor(code, message, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

/**
 * @param {"GET" | "POST"} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<any>} the answer's JSON
 */
async function request(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw new ApiError("network", String(e), 0);
  }
  let data = null;
  try {
    data = await response.json();
  } catch (e) {
    data = null;
  }
  if (!response.ok) {
    throw new ApiError(data && data.code ? data.code : "internal", data && data.message ? data.message : "HTTP " + response.status, response.status);
  }
  return data;
}

export const api = {
  /** @type {(request_: import("./types.js").NewGame) => Promise<import("./types.js").Summary>} */
  create: (request_) => request("POST", "/api/games", request_),
  /** @type {(id: number) => Promise<import("./types.js").Summary>} */
  summary: (id) => request("GET", "/api/games/" + id),
  // A page of the lobby, newest first: "open" games (a seat to take) or "playing" ones.
  /** @type {(status: "open" | "playing", limit?: number) => Promise<import("./types.js").Lobby>} */
  list: (status, limit) => request("GET", "/api/games?status=" + status + "&limit=" + (limit || 50)),
  // A free seat; a rematch's with `previous`, the token of the seat its player held in the game before.
  /** @type {(id: number, seat: string, previous?: string) => Promise<import("./types.js").Joined>} */
  join: (id, seat, previous) =>
    request("POST", "/api/games/" + id + "/seats/" + seat + "/join", previous ? { token: previous } : undefined),
  // The person of a seat leaves the game: a bot plays the seat to the end.
  /** @type {(id: number, seat: string, token: string) => Promise<import("./types.js").Summary>} */
  leave: (id, seat, token) => request("POST", "/api/games/" + id + "/seats/" + seat + "/leave", { token }),
  // A finished game again: a rematch (`swap`, sides swapped, one per game) or the same settings.
  /** @type {(id: number, swap: boolean) => Promise<import("./types.js").Again>} */
  again: (id, swap) => request("POST", "/api/games/" + id + "/again", { swap }),
  /** @type {(request_: {players: string[], sides: string[]}) => Promise<import("./types.js").Campaign>} */
  createCampaign: (request_) => request("POST", "/api/campaigns", request_),
  /** @type {(id: number) => Promise<import("./types.js").Campaign>} */
  campaign: (id) => request("GET", "/api/campaigns/" + id),
  /** @type {(id: number, seat: string) => Promise<import("./types.js").CampaignJoined>} */
  joinCampaign: (id, seat) => request("POST", "/api/campaigns/" + id + "/seats/" + seat + "/join"),
  /** @type {(id: number, body: {token: string | null, choice?: number}) => Promise<import("./types.js").Campaign>} */
  nextScenario: (id, body) => request("POST", "/api/campaigns/" + id + "/next", body),
  /** @type {(id: number, body: {token: string, card: string, sheet: string, row: number}) => Promise<import("./types.js").Campaign>} */
  completeCampaign: (id, body) => request("POST", "/api/campaigns/" + id + "/complete", body),
};

/** @param {number} id */
export function recordUrl(id) {
  return "/api/games/" + id + "/record";
}

/**
 * @param {number} id
 * @param {string | null} token `null`: a spectator's
 */
export function socketUrl(id, token) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  // Views as changes: conn.js makes each whole again.
  const query = "?views=changes" + (token ? "&token=" + encodeURIComponent(token) : "");
  return scheme + "//" + location.host + "/api/games/" + id + "/ws" + query;
}

// Tokens: one localStorage entry per game and seat, `realms-token-<id>-<seat>`, so that a reload
// takes the seats back. A token is shown once by the server: losing it loses the seat.
const TOKEN_PREFIX = "realms-token-";

/**
 * @param {number} id
 * @param {string} seat
 * @param {string} token
 */
export function saveToken(id, seat, token) {
  localStorage.setItem(TOKEN_PREFIX + id + "-" + seat, token);
}

/**
 * The seats this browser holds in game `id`: `{p1: token, …}` in seat order.
 * @param {number} id
 * @returns {Record<string, string>}
 */
export function tokensOf(id) {
  /** @type {Record<string, string>} */
  const out = {};
  const prefix = TOKEN_PREFIX + id + "-";
  const seats = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (key && key.startsWith(prefix)) seats.push(key.slice(prefix.length));
  }
  seats.sort();
  for (const seat of seats) out[seat] = /** @type {string} */ (localStorage.getItem(prefix + seat));
  return out;
}

/**
 * Every game this browser holds a seat of, newest first: `[{id, seats: [..]}]`.
 * @returns {{id: number, seats: string[]}[]}
 */
export function heldGames() {
  /** @type {Map<number, string[]>} */
  const games = new Map();
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    const m = key && key.match(/^realms-token-(\d+)-(p\d)$/);
    if (!m) continue;
    const id = Number(m[1]);
    if (!games.has(id)) games.set(id, []);
    /** @type {string[]} */ (games.get(id)).push(m[2]);
  }
  return [...games.entries()].sort((a, b) => b[0] - a[0]).map(([id, seats]) => ({ id, seats: seats.sort() }));
}

/**
 * Forgets this browser's token of one seat (a seat left to a bot: the token opens nothing now).
 * @param {number} id
 * @param {string} seat
 */
export function forgetSeat(id, seat) {
  localStorage.removeItem(TOKEN_PREFIX + id + "-" + seat);
}

/** @param {number} id */
export function forgetGame(id) {
  for (const seat of Object.keys(tokensOf(id))) localStorage.removeItem(TOKEN_PREFIX + id + "-" + seat);
}

/** A fresh id for an act: unique across reloads (the server remembers every id it applied). */
export function freshClientId() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return "c-" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// Campaign tokens: `realms-campaign-<id>-<seat>`. The same token opens the seat in each game of
// the campaign: the campaign page copies it to the game's entry before opening a game.
const CAMPAIGN_PREFIX = "realms-campaign-";

/**
 * @param {number} id
 * @param {string} seat
 * @param {string} token
 */
export function saveCampaignToken(id, seat, token) {
  localStorage.setItem(CAMPAIGN_PREFIX + id + "-" + seat, token);
}

/**
 * The seats this browser holds in campaign `id`: `{p1: token}`.
 * @param {number} id
 * @returns {Record<string, string>}
 */
export function campaignTokensOf(id) {
  /** @type {Record<string, string>} */
  const out = {};
  for (const seat of ["p1", "p2"]) {
    const token = localStorage.getItem(CAMPAIGN_PREFIX + id + "-" + seat);
    if (token) out[seat] = token;
  }
  return out;
}

/**
 * Every campaign this browser holds a seat of, newest first: `[{id, seats: [..]}]`.
 * @returns {{id: number, seats: string[]}[]}
 */
export function heldCampaigns() {
  /** @type {Map<number, string[]>} */
  const found = new Map();
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    const m = key && key.match(/^realms-campaign-(\d+)-(p\d)$/);
    if (!m) continue;
    const id = Number(m[1]);
    if (!found.has(id)) found.set(id, []);
    /** @type {string[]} */ (found.get(id)).push(m[2]);
  }
  return [...found.entries()].sort((a, b) => b[0] - a[0]).map(([id, seats]) => ({ id, seats: seats.sort() }));
}
