// @ts-check
// Card art of our own: an emblem per faction over a silhouette per kind (ship, base, outpost),
// drawn as SVG. No publisher art.

const NS = "http://www.w3.org/2000/svg";

/** Each faction's emblem: SVG shapes in a 100 × 100 box, drawn in the faction's colour. */
/** @type {Record<string, string>} */
const EMBLEMS = {
  // Living cells.
  blob: '<circle cx="50" cy="52" r="24"/><circle cx="24" cy="30" r="11"/><circle cx="78" cy="28" r="8"/><circle cx="80" cy="76" r="12"/><circle cx="22" cy="78" r="7"/>',
  // Rings of trade around a world.
  trade_federation: '<circle cx="50" cy="50" r="16"/><ellipse cx="50" cy="50" rx="42" ry="14" fill="none" stroke-width="6"/><ellipse cx="50" cy="50" rx="14" ry="42" fill="none" stroke-width="4" opacity=".6"/>',
  // An eight-pointed star.
  star_empire: '<polygon points="50,4 59,36 92,22 66,47 96,58 62,62 72,95 50,70 28,95 38,62 4,58 34,47 8,22 41,36"/>',
  // A cog.
  machine_cult: '<path d="M44 6h12l2 12 9 4 10-7 8 8-7 10 4 9 12 2v12l-12 2-4 9 7 10-8 8-10-7-9 4-2 12H44l-2-12-9-4-10 7-8-8 7-10-4-9-12-2V44l12-2 4-9-7-10 8-8 10 7 9-4z"/><circle cx="50" cy="50" r="14" fill="#0d111c"/>',
  // A coin with a bar.
  consortium: '<circle cx="50" cy="50" r="38" fill="none" stroke-width="8"/><rect x="28" y="44" width="44" height="12" rx="3"/>',
  // A crown.
  kingdom: '<path d="M12 74 L18 30 L36 52 L50 20 L64 52 L82 30 L88 74 Z"/><rect x="12" y="78" width="76" height="10" rx="2"/>',
  // Salvaged plates.
  scavengers: '<path d="M14 20 L52 12 L46 44 Z"/><path d="M58 16 L90 36 L60 54 Z"/><path d="M12 52 L44 54 L30 90 Z"/><path d="M52 62 L88 58 L72 92 Z"/>',
  // Unaligned: a diamond.
  none: '<polygon points="50,10 86,50 50,90 14,50" fill="none" stroke-width="8"/><polygon points="50,34 66,50 50,66 34,50"/>',
};

/** Each kind's silhouette, behind the emblem. */
/** @type {Record<string, string>} */
const SILHOUETTES = {
  ship: '<path d="M50 4 L64 44 L94 70 L62 66 L56 92 L44 92 L38 66 L6 70 L36 44 Z"/>',
  base: '<circle cx="50" cy="50" r="44"/><rect x="2" y="44" width="96" height="12" rx="4"/>',
  outpost: '<path d="M50 4 L92 22 L86 70 L50 96 L14 70 L8 22 Z"/>',
};

/**
 * The art of a card of `faction` and `kind`: an `<svg>` (class `card-art`), the kind's silhouette
 * faint behind the faction's emblem.
 * @param {string} faction
 * @param {string} kind
 * @returns {SVGSVGElement}
 */
export function cardArt(faction, kind) {
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", "0 0 100 100");
  svg.setAttribute("class", "card-art");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const shape = SILHOUETTES[kind] || SILHOUETTES.ship;
  const emblem = EMBLEMS[faction] || EMBLEMS.none;
  svg.innerHTML = `<g class="art-kind">${shape}</g><g class="art-emblem" transform="translate(25 25) scale(.5)">${emblem}</g>`;
  return svg;
}
