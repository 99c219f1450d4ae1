// Prints how the table page calls each seat of a JSON list (static/js/table/format.js's
// seatName) and the bots' casts (static/js/table/bot-names.js), for
// tests/games/test_bot_names.py.
//
//   node seat_names.mjs '<seats as JSON>'   ->   {"names": [...], "casts": {...}, "results": [...]}

import path from "node:path";
import { pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..", "..");
const load = (file) => import(pathToFileURL(path.join(root, file)).href);
const { outcomeWords, seatName } = await load("static/js/table/format.js");
const { CASTS } = await load("static/js/table/bot-names.js");
const seats = JSON.parse(process.argv[2]);
// The result as the end-of-game box says it, when each seat in turn has won.
const results = seats.map((seat) => outcomeWords({ winners: [seat.index], scores: [], reason: "resign" }, seats, null).text);
process.stdout.write(JSON.stringify({ names: seats.map((seat) => seatName(seat)), casts: CASTS, results }));
