// Dates, times and numbers in the page's language (<html lang>): "26 nov." and "7,3"
// on a French page, "26 Nov" and "7.3" on an English one. Every script that shows a
// number with decimals or a date goes through these rather than toFixed/toString.

/** The page's language: the lang attribute of <html> (French when there is none). */
export function pageLanguage() {
  const lang = typeof document !== "undefined" ? document.documentElement.lang : "";
  return lang || "fr";
}

/** 7.25 -> "7,3" (fr) / "7.3" (en) with `digits` decimals (fixed). */
export function formatDecimal(value, digits = 1, lang = pageLanguage()) {
  return new Intl.NumberFormat(lang, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
}

/** A whole number with the language's grouping: 9000 -> "9 000" (fr) / "9,000" (en). */
export function formatInteger(value, lang = pageLanguage()) {
  return new Intl.NumberFormat(lang, { maximumFractionDigits: 0 }).format(value);
}

/** A day and a short month: "26 nov." (fr) / "Nov 26" (en). */
export function formatShortDate(date, lang = pageLanguage(), timeZone = undefined) {
  return new Intl.DateTimeFormat(lang, { day: "numeric", month: "short", timeZone }).format(new Date(date));
}

/** A clock time: "20:05" (fr) / "8:05 PM" (en). */
export function formatTime(date, lang = pageLanguage(), timeZone = undefined) {
  return new Intl.DateTimeFormat(lang, { hour: "numeric", minute: "2-digit", timeZone }).format(new Date(date));
}

/** Seconds with tenths for a clock running out: 9.34 -> "9,3" (fr) / "9.3" (en). */
export function formatTenths(seconds, lang = pageLanguage()) {
  return formatDecimal(Math.floor(seconds * 10) / 10, 1, lang);
}
