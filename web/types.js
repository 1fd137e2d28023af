// @ts-check
// The shapes of the protocol (docs/protocol.md) and of the interface's own values, for the type
// checker only: JSDoc typedefs, no code. The other files name them as
// `import("./types.js").View`; the browser never loads this file.

// ----- the protocol's words ------------------------------------------------------------------

/** A seat: `p1` … `p6`, in table order. @typedef {string} Seat */

/** A Star Realms card's id (`scout`, `cutter`) or a Bataille Cosmique meteor (`red3`, `plus2`). @typedef {string} CardId */

/** Which game: `starrealms` or `cosmique`. @typedef {"starrealms" | "cosmique"} GameKind */

/**
 * One action of the log, as the seat reading it may see it; `card` names the public card the
 * line is about when the server gives it.
 * @typedef {object} LogLine
 * @property {number} index 0-based
 * @property {Seat} seat who played it
 * @property {string} action its text form (`buy row 2`)
 * @property {CardId} [card]
 */

/**
 * A `view` message: what one connection may see of the game now. `observation` is the engine's
 * (`SrObservation` or `CosObservation`, after `game`).
 * @typedef {object} View
 * @property {"view"} type
 * @property {number} id the game
 * @property {GameKind} game
 * @property {number} version actions played so far
 * @property {Seat | null} seat this connection's seat, `null` for a spectator
 * @property {Seat | null} to_move `null` once over
 * @property {boolean} over
 * @property {Seat[] | null} winners once over (`[]`: a draw)
 * @property {any} observation
 * @property {string[]} legal_actions only for the seat to move
 * @property {LogLine[]} log the lines this connection has not been sent yet
 * @property {string} [ack] the `client_id` of the act answered
 * @property {SeatPresence[]} [seats] every seat: who plays it, whether it is claimed and connected
 * @property {Seat[]} [waiting] the human seats nobody has claimed yet (the game has not started)
 */

/**
 * A refused action's reason: a key of the translation table and its placeholders' values.
 * @typedef {{key: string, args?: Record<string, string>}} Reason
 */

/**
 * An `error` message of the WebSocket.
 * @typedef {object} ErrorMessage
 * @property {"error"} type
 * @property {string} code
 * @property {string} message in English
 * @property {string} [client_id] the refused act's
 * @property {Reason} [reason]
 */

/**
 * An `act` message.
 * @typedef {{type: "act", client_id: string, version: number, action: string}} Act
 */

// ----- the HTTP API ---------------------------------------------------------------------------

/**
 * Who sits in a seat of a game's or a campaign's summary.
 * @typedef {{seat: Seat, player: string, claimed: boolean}} SeatInfo
 */

/**
 * A seat as a view shows it: also whether somebody is at the table now (bots always are).
 * @typedef {SeatInfo & {connected: boolean}} SeatPresence
 */

/**
 * A game's summary (`GET /api/games/{id}`, each game of the lobby).
 * @typedef {object} Summary
 * @property {number} id
 * @property {GameKind} game
 * @property {Record<string, any>} config the game's configuration (`format`, `edition`, `sets`, `variant` …)
 * @property {SeatInfo[]} seats
 * @property {string} created_at
 * @property {number} actions
 * @property {boolean} finished
 * @property {Seat[] | null} winners
 * @property {boolean} open
 * @property {boolean} seed_chosen
 * @property {boolean} retired a free seat expired: the game can never start
 * @property {number} [campaign] the campaign the game is part of
 * @property {number} [rematch] the rematch of this finished game, once somebody asked for it
 * @property {number} [rematch_of] the finished game this one is the rematch of (its seats are kept for that game's players)
 * @property {Record<string, string>} [kept_for] a rematch's seats, each with the seat of the finished game whose player it is kept for
 */

/**
 * A game to create (`POST /api/games`).
 * @typedef {object} NewGame
 * @property {GameKind} game
 * @property {string[]} seats `human` or a bot, in seat order
 * @property {string} [format]
 * @property {string} [edition]
 * @property {string[]} [sets]
 * @property {string[][]} [sheets] each seat's sticker sheets
 * @property {boolean} [political]
 * @property {string} [variant]
 * @property {number} [first] the index in `seats` of who plays first
 * @property {number} [campaign] a finished campaign whose trade deck deals the game
 */

/**
 * The answer of `POST /api/games/{id}/again`: the new game, and where each seat went.
 * @typedef {Summary & {seats_from: Record<Seat, Seat>}} Again
 */

/** A page of the lobby. @typedef {{games: Summary[], next: string | null}} Lobby */

/** A seat taken (`…/join`): its token is shown once. @typedef {{id: number, seat: Seat, token: string}} Joined */

/** A campaign's seat taken. @typedef {{campaign: number, seat: Seat, token: string}} CampaignJoined */

/** A text of the campaign file in each language (`{en: …, fr: …}`). @typedef {Record<string, string>} LocalText */

/**
 * A campaign's scenario.
 * @typedef {object} Scenario
 * @property {number} number
 * @property {LocalText} name
 * @property {LocalText} text
 * @property {boolean} political
 * @property {{points: number, name: LocalText}} victory_point
 */

/**
 * A scenario played: who opened, who won (`null`: a draw), who took its victory-point card.
 * @typedef {{first: number, winner: number | null, card: number | null, political: boolean}} ScenarioResult
 */

/**
 * A sticker sheet of a campaign's player, and the stickers used on it.
 * @typedef {{sheet: string, used: {row: number, column: string}[], political: boolean}} CampaignSheet
 */

/**
 * Where a campaign stands; players are numbered 0 (p1) and 1 (p2).
 * @typedef {object} CampaignStatus
 * @property {string} campaign
 * @property {string[]} sides
 * @property {string[]} players
 * @property {number} scenario the next one, or the one being played
 * @property {number} scenarios
 * @property {boolean} over
 * @property {boolean} in_progress
 * @property {number | null} winner
 * @property {number[]} points
 * @property {number[]} political_victories
 * @property {number[]} stickers_used
 * @property {number} next_first
 * @property {LocalText[]} next_choice
 * @property {ScenarioResult[]} results
 * @property {CampaignSheet[][]} sheets
 * @property {CardId[]} upgraded_cards
 * @property {number} trade_deck
 * @property {number | null} completion_turn
 * @property {[CardId, string, number][]} completion_options card, sheet, row
 * @property {number | null} final_trade_deck
 */

/**
 * A campaign (`GET /api/campaigns/{id}`).
 * @typedef {object} Campaign
 * @property {number} id
 * @property {LocalText} name
 * @property {string} created_at
 * @property {SeatInfo[]} seats
 * @property {number[]} games in order, the last one maybe in progress
 * @property {Scenario[]} scenarios
 * @property {CampaignStatus} status
 */

/**
 * One step of a replay: the game after its first `step` actions, and the line that led there.
 * @typedef {object} ReplayStep
 * @property {number} step
 * @property {Seat | null} to_move
 * @property {boolean} over
 * @property {Seat[] | null} winners
 * @property {any} observation
 * @property {LogLine | null} line
 */

/**
 * A page of a replay (`GET /api/games/{id}/replay`, `POST /api/replay`).
 * @typedef {object} ReplayPage
 * @property {GameKind} game
 * @property {number} seats
 * @property {string[]} players
 * @property {number} actions
 * @property {Seat} seat
 * @property {boolean} all
 * @property {ReplayStep[]} views
 */

/**
 * A Star Realms card's texts, from `/api/texts`.
 * @typedef {object} CardText
 * @property {string} name
 * @property {string | null} faction `null`: unaligned
 * @property {string[]} [factions] an upgraded card's two
 * @property {string | null} [faction_name]
 * @property {string | null} [ally_faction_name]
 * @property {{of: CardId, sheet: string, sheet_name: string, row: number} | null} [upgrade]
 * @property {string} kind `ship`, `base` or `outpost`
 * @property {number} cost
 * @property {number | null} defense
 * @property {string} line
 * @property {string} text
 */

/**
 * A sticker sheet's texts: each row's printed cost and its two stickers in words.
 * @typedef {{name: string, side: string | null, side_name: string, rows: {cost: number, ship?: string | null, base?: string | null}[]}} SheetText
 */

/**
 * The answer of `/api/texts`.
 * @typedef {object} Texts
 * @property {string} lang
 * @property {string[]} languages
 * @property {Record<string, string>} language_names
 * @property {Record<string, string>} messages
 * @property {Record<CardId, CardText>} cards
 * @property {Record<string, SheetText>} [sheets]
 */

// ----- Star Realms observations (what the table reads of `starrealms::Observation`) ----------

/** A card in play. @typedef {{card: CardId, copy?: CardId, primary_used?: boolean, ally_used?: boolean, ally2_used?: boolean, damage?: number}} InPlay */

/** A sheet owned and its stickers used (bit `r`: row `r + 1`). @typedef {{sheet: string, ship: number, base: number, political?: boolean}} SheetUse */

/**
 * One player as a seat sees them; `hand` only in the owner's view.
 * @typedef {object} SrPlayer
 * @property {number} authority
 * @property {boolean} alive
 * @property {number} team
 * @property {number} trade
 * @property {number} combat
 * @property {InPlay[]} ships
 * @property {InPlay[]} bases
 * @property {CardId[]} discard
 * @property {CardId[] | null} hand
 * @property {number} hand_count
 * @property {number} deck_count
 * @property {number} pending_discards
 * @property {SheetUse[]} [sheets]
 */

/** Where a "choose one" comes from. @typedef {{card: CardId, ability: string, option?: number[]}} Source */

/**
 * The decision the rules wait for. `card` and `to` may be read of any (they are there for
 * `top_or_discard`, `to_hand` and `bequeath`).
 * @typedef {({decision: "choose", source: Source, at: number}
 *   | {decision: "scrap", from: "hand" | "discard" | "hand_or_discard", left: number, optional: boolean}
 *   | {decision: "scrap_trade_row", optional: boolean, left?: number}
 *   | {decision: "destroy_base", optional: boolean}
 *   | {decision: "discard_target"}
 *   | {decision: "discard", seat: Seat, left: number}
 *   | {decision: "discard_then_draw", left: number}
 *   | {decision: "copy_ship", ship: number}
 *   | {decision: "acquire_free"}
 *   | {decision: "top_or_discard", card: CardId}
 *   | {decision: "bequeath", from: Seat, to: Seat}
 *   | {decision: "acquire_up_to", cost: number, to: string}
 *   | {decision: "to_hand", card: CardId, on_deck: boolean}
 *   | {decision: "copy_base", base: number}
 *   | {decision: "player_discard_target"}
 *   | {decision: "base_to_top"}
 *   | {decision: "discard_for", source: Source, at: number, left: number}
 *   | {decision: "discard_reward", source: Source, at: number, left: number}) & {card?: CardId, to?: Seat}} Pending
 */

/**
 * A seat's view of a Star Realms game (the parts the interface reads).
 * @typedef {object} SrObservation
 * @property {Seat | null} seat
 * @property {{format: string} & Record<string, any>} config
 * @property {Seat} current
 * @property {number} turn
 * @property {Seat | null} to_move
 * @property {boolean} over
 * @property {Pending | null} pending
 * @property {(CardId | null)[]} row the trade row
 * @property {number} trade_deck_count
 * @property {number} explorers
 * @property {CardId[]} scrap_heap
 * @property {SrPlayer[]} players
 */

// ----- Bataille Cosmique observations (`cosmique::Observation`) ----------------------------

/**
 * A planet's slot: its defence and the attack waiting there, each with its meteor when this
 * seat knows it.
 * @typedef {object} CosSlot
 * @property {{card: CardId | null, revealed: boolean} | null} defence
 * @property {{by: Seat, card: CardId | null, plus2: boolean} | null} attack
 */

/**
 * A planet as a seat sees it; `hand` only in the owner's view.
 * @typedef {object} CosPlanet
 * @property {number} life 0: destroyed
 * @property {CardId[] | null} hand
 * @property {number} hand_count
 * @property {CardId[]} [hand_known] cards of the hand everybody knows
 * @property {CardId | null} orbit
 * @property {[CosSlot, CosSlot]} slots left, right
 */

/**
 * A seat's view of a Bataille Cosmique game.
 * @typedef {object} CosObservation
 * @property {Seat | null} seat
 * @property {{variant: string} & Record<string, any>} config
 * @property {Seat} current
 * @property {number} turn
 * @property {number} actions_left
 * @property {Seat | null} to_move
 * @property {boolean} over
 * @property {Seat | null} winner `null`: a draw (or not over)
 * @property {number} pile_count
 * @property {CardId[] | null} pile_cards
 * @property {CardId[]} discard
 * @property {CosPlanet[]} planets
 * @property {CardId[]} unseen
 */

// ----- the interface's own values -------------------------------------------------------------

/**
 * A log line read (actions.js `LogReader`): `ref` names what an index in the line pointed at
 * when it was played, a card or the options of a "choose one" (`[card, ability, at]`).
 * @typedef {object} LogEntry
 * @property {number} index
 * @property {Seat} seat
 * @property {string} action
 * @property {LogRef | null} ref
 */

/** @typedef {{card?: CardId | null, option?: [CardId, string, number]}} LogRef */

/** What a seat is called on a page (`p2 (medium)`). @typedef {(seat: Seat | null) => string} SeatName */

/**
 * What the table keeps between two views.
 * @typedef {{dialogCollapsed: boolean, logOpen: boolean, confirmEnd?: boolean, confirmLeave?: boolean}} TableUi
 */

/**
 * The view a table draws: the server's, or a replay's step made into one (which has no `type`,
 * `id` or `ack`).
 * @typedef {Omit<View, "type" | "id" | "ack"> & {type?: "view", id?: number}} ShownView
 */

/**
 * What the Star Realms table is drawn from (table.js `renderTable`).
 * @typedef {object} TableCtx
 * @property {ShownView} view
 * @property {boolean} [yourTurn]
 * @property {LogEntry[]} log
 * @property {(action: string) => void} act
 * @property {SeatName} seatName
 * @property {() => void} playAll
 * @property {boolean} busy
 * @property {TableUi} ui
 * @property {() => void} rerender
 * @property {() => void} toggleDialog
 * @property {Child} header
 * @property {Child} [leave] the button that leaves the game to a bot
 * @property {boolean} [replay]
 */

/**
 * What a Bataille Cosmique table is drawn from (cosmique.js `renderCosmique`).
 * @typedef {object} CosCtx
 * @property {ShownView} view
 * @property {(key: string, vars?: Record<string, unknown>) => string} t
 * @property {(action: string) => void} act
 * @property {SeatName} seatName
 * @property {string} [journalKey] whose journal this is (default: the view's game and seat; a
 *   replay has its own)
 */

/**
 * The attributes of `h()` (dom.js): any attribute, and event listeners whose event knows its
 * element (a select's `change` has the select as its `target`).
 * @template {Element} [E=HTMLElement]
 * @typedef {{
 *   [name: string]: unknown,
 *   onclick?: (e: MouseEvent & {target: Element, currentTarget: E}) => void,
 *   onkeydown?: (e: KeyboardEvent & {currentTarget: E}) => void,
 *   onchange?: (e: Event & {target: E, currentTarget: E}) => void,
 *   oninput?: (e: Event & {target: E, currentTarget: E}) => void,
 *   onfocus?: (e: FocusEvent & {target: E, currentTarget: E}) => void,
 *   onsubmit?: (e: SubmitEvent) => void,
 * }} Attrs
 */

/** What `h()` and `fill()` take as children: nothing is left out but `null`, `undefined` and `false`. @typedef {Node | string | number | boolean | null | undefined | Child[]} Child */

export {};
