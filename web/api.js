// The server's HTTP API (docs/protocol.md) and the seat tokens this browser holds.

/** An error answered by the server: `code` from the protocol's table, `message` in English. */
export class ApiError extends Error {
  constructor(code, message, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

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
  create: (request_) => request("POST", "/api/games", request_),
  summary: (id) => request("GET", "/api/games/" + id),
  // A page of the lobby, newest first: "open" games (a seat to take) or "playing" ones.
  list: (status, limit) => request("GET", "/api/games?status=" + status + "&limit=" + (limit || 50)),
  join: (id, seat) => request("POST", "/api/games/" + id + "/seats/" + seat + "/join"),
  // A finished game again: a rematch (`swap`, sides swapped, one per game) or the same settings.
  again: (id, swap) => request("POST", "/api/games/" + id + "/again", { swap }),
  createCampaign: (request_) => request("POST", "/api/campaigns", request_),
  campaign: (id) => request("GET", "/api/campaigns/" + id),
  joinCampaign: (id, seat) => request("POST", "/api/campaigns/" + id + "/seats/" + seat + "/join"),
  nextScenario: (id, body) => request("POST", "/api/campaigns/" + id + "/next", body),
  completeCampaign: (id, body) => request("POST", "/api/campaigns/" + id + "/complete", body),
};

export function recordUrl(id) {
  return "/api/games/" + id + "/record";
}

export function socketUrl(id, token) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const query = token ? "?token=" + encodeURIComponent(token) : "";
  return scheme + "//" + location.host + "/api/games/" + id + "/ws" + query;
}

// Tokens: one localStorage entry per game and seat, `realms-token-<id>-<seat>`, so that a reload
// takes the seats back. A token is shown once by the server: losing it loses the seat.
const TOKEN_PREFIX = "realms-token-";

export function saveToken(id, seat, token) {
  localStorage.setItem(TOKEN_PREFIX + id + "-" + seat, token);
}

/** The seats this browser holds in game `id`: `{p1: token, …}` in seat order. */
export function tokensOf(id) {
  const out = {};
  const prefix = TOKEN_PREFIX + id + "-";
  const seats = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (key && key.startsWith(prefix)) seats.push(key.slice(prefix.length));
  }
  seats.sort();
  for (const seat of seats) out[seat] = localStorage.getItem(prefix + seat);
  return out;
}

/** Every game this browser holds a seat of, newest first: `[{id, seats: [..]}]`. */
export function heldGames() {
  const games = new Map();
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    const m = key && key.match(/^realms-token-(\d+)-(p\d)$/);
    if (!m) continue;
    const id = Number(m[1]);
    if (!games.has(id)) games.set(id, []);
    games.get(id).push(m[2]);
  }
  return [...games.entries()].sort((a, b) => b[0] - a[0]).map(([id, seats]) => ({ id, seats: seats.sort() }));
}

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

export function saveCampaignToken(id, seat, token) {
  localStorage.setItem(CAMPAIGN_PREFIX + id + "-" + seat, token);
}

/** The seats this browser holds in campaign `id`: `{p1: token}`. */
export function campaignTokensOf(id) {
  const out = {};
  for (const seat of ["p1", "p2"]) {
    const token = localStorage.getItem(CAMPAIGN_PREFIX + id + "-" + seat);
    if (token) out[seat] = token;
  }
  return out;
}

/** Every campaign this browser holds a seat of, newest first: `[{id, seats: [..]}]`. */
export function heldCampaigns() {
  const found = new Map();
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    const m = key && key.match(/^realms-campaign-(\d+)-(p\d)$/);
    if (!m) continue;
    const id = Number(m[1]);
    if (!found.has(id)) found.set(id, []);
    found.get(id).push(m[2]);
  }
  return [...found.entries()].sort((a, b) => b[0] - a[0]).map(([id, seats]) => ({ id, seats: seats.sort() }));
}
