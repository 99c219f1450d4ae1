// What bots are called at a table: the casts of games/bots/names.py (kept equal to it by
// tests/games/test_bot_names.py). A bot is called by its level's cast and its seat, so
// two bots at one table never share a name and the name tells the level.

export const CASTS = {
  easy: ["Pomme", "Praline", "Noisette", "Myrtille", "Clémentine", "Réglisse"],
  medium: ["Renard", "Hibou", "Blaireau", "Loutre", "Héron", "Castor"],
  hard: ["Hypatie", "Euclide", "Noether", "Turing", "Lovelace", "Gauss"],
};

/** The name of a bot of `level` on seat `seat` (0-based), or null for an unknown level. */
export function botName(level, seat) {
  const cast = CASTS[level];
  if (!cast || !Number.isInteger(seat) || seat < 0) return null;
  return cast[seat % cast.length];
}

/** Whether `name` is one of the bots' own names (not a person's, kept after a handover). */
export function isCastName(name) {
  return Object.values(CASTS).some((cast) => cast.includes(name));
}
