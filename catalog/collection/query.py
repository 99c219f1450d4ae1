"""What a title query means, word by word, with no Django in it: which words may be
left out (articles and short function words in French and English), which numbers
are spelt out, and the "compact" form of a name that makes "Les Aventuriers du
Rail", "aventuriers du rail" and "aventuriersdurail" one and the same, or "Seven
Wonders" and "7 Wonders" (numbers in several words: catalog.collection.numbers).

Names and queries are folded first (catalog.text.fold_query: lower case, no accents,
punctuation as spaces), so "L'Île" is the two words "l ile".
"""

from __future__ import annotations

from catalog.collection import numbers

# Articles, contractions and short function words: never required to match. Only
# words too common to tell games apart ("a" is also the French "à").
STOP_WORDS = frozenset(
    "le la les l un une des du de d au aux a et en the of an and to".split()
)

# Numbers written as words, in the catalogue's languages; a digit and its words
# stand for each other. "un"/"une" are left out: in French they are articles first.
NUMBER_WORDS = {
    "1": ("one", "eins"),
    "2": ("two", "deux", "zwei"),
    "3": ("three", "trois", "drei"),
    "4": ("four", "quatre", "vier"),
    "5": ("five", "cinq", "funf"),
    "6": ("six", "sechs"),
    "7": ("seven", "sept", "sieben"),
    "8": ("eight", "huit", "acht"),
    "9": ("nine", "neuf", "neun"),
    "10": ("ten", "dix", "zehn"),
    "11": ("eleven", "onze", "elf"),
    "12": ("twelve", "douze", "zwolf"),
    "13": ("thirteen", "treize", "dreizehn"),
    "14": ("fourteen", "quatorze", "vierzehn"),
    "15": ("fifteen", "quinze", "funfzehn"),
    "16": ("sixteen", "seize", "sechzehn"),
    "17": ("seventeen", "siebzehn"),
    "18": ("eighteen", "achtzehn"),
    "19": ("nineteen", "neunzehn"),
    "20": ("twenty", "vingt", "zwanzig"),
    "30": ("thirty", "trente", "dreissig"),
    "40": ("forty", "quarante", "vierzig"),
    "50": ("fifty", "cinquante", "funfzig"),
    "60": ("sixty", "soixante", "sechzig"),
    "70": ("seventy", "septante", "siebzig"),
    "80": ("eighty", "huitante", "octante", "achtzig"),
    "90": ("ninety", "nonante", "neunzig"),
    "100": ("hundred", "cent", "hundert"),
    "1000": ("thousand", "mille", "tausend"),
}
DIGITS_OF = {word: digits for digits, words in NUMBER_WORDS.items() for word in words}


# Abbreviations a guest types for a word of a box title, both ways ("dr maboul" finds
# "Docteur Maboul"; "docteur eureka" finds "Dr. Eureka"). Only unambiguous ones.
ABBREVIATIONS = [
    ("dr", "docteur", "doctor"),
    ("st", "saint"),
    ("ste", "sainte"),
    ("mr", "monsieur", "mister"),
    ("mme", "madame"),
]
FORMS_OF = {word: set(group) - {word} for group in ABBREVIATIONS for word in group}


# What a guest may type before a game's name that the box does not carry: "jeu
# d'échecs" is Chess ("Échecs"), "jeu de go" is Go, "jeux de dominos" Dominos. The
# query is then also searched without it (catalog.collection.search).
GENERIC_LEADS = frozenset({"jeu", "jeux"})
LEAD_LINKS = frozenset({"de", "du", "des", "d"})


def after_generic_lead(words: list[str]) -> list[str]:
    """The folded query's words after a leading "jeu"/"jeux" and the "de"/"du"/"des"/"d'"
    that follows it ("jeu de la bonne paye": "la bonne paye"), or [] when the query does
    not begin so or nothing significant follows."""
    if len(words) < 2 or words[0] not in GENERIC_LEADS:
        return []
    rest = words[2:] if words[1] in LEAD_LINKS else words[1:]
    return rest if any(w not in STOP_WORDS for w in rest) else []


def significant(words: list[str]) -> list[str]:
    """The words that must match: all but the stop words (all of them when the
    query holds nothing else, such as "the" or "les")."""
    kept = [w for w in words if w not in STOP_WORDS]
    return kept or list(words)


def as_digits(word: str) -> str:
    return DIGITS_OF.get(word, word)


def number_forms(word: str) -> set[str]:
    """The other ways of writing a number: "7" -> {"seven", "sept", "sieben"};
    "sept" -> {"7", "seven", "sieben"}. Empty for a word that is not a number."""
    digits = as_digits(word)
    if digits not in NUMBER_WORDS:
        return set()
    return ({digits, *NUMBER_WORDS[digits]}) - {word}


def word_forms(word: str) -> set[str]:
    """The other ways of writing a word: a number's ("7" -> "sept"...), an
    abbreviation's ("dr" -> "docteur", "doctor"; "docteur" -> "dr")."""
    return number_forms(word) | FORMS_OF.get(word, set())


def compact(words: list[str]) -> str:
    """A name or a query as one string: stop words out, numbers as digits (those
    written in several words too: "quarante quatre"), no spaces."""
    return "".join(as_digits(w) for w in significant(numbers.as_digits(words)))



LETTERS = "abcdefghijklmnopqrstuvwxyz0123456789"


def one_edit_away(word: str) -> set[str]:
    """Every spelling one keystroke from ``word``: a letter left out, added or
    changed, or two neighbours swapped (as Norvig's spelling corrector does)."""
    cuts = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    deletes = {a + b[1:] for a, b in cuts if b}
    swaps = {a + b[1] + b[0] + b[2:] for a, b in cuts if len(b) > 1}
    changes = {a + c + b[1:] for a, b in cuts if b for c in LETTERS}
    inserts = {a + c + b for a, b in cuts for c in LETTERS}
    return (deletes | swaps | changes | inserts) - {word}
