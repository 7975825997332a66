// graph-node names a subgraph's query fields with the Rust `Inflector` crate (0.11): `to_camel_case(type)` for the
// single-entity field and `to_camel_case(to_plural(type))` for the collection, with `_collection` appended when the
// two are equal (graph/src/data/graphql/ext.rs, camel_cased_names). This module reproduces those two functions'
// observable behaviour for ASCII type names, written from the crate's documented rules:
//   - camel case: the first letter is lower-cased; a word starts (upper-case) after a separator or a digit, or
//     where an upper-case letter follows the last lower-case letter seen; every other letter is lower-cased. So
//     a leading acronym is NOT split from the next word: "DPSEmission" -> "dpsemission", "CHMint" -> "chmint",
//     while "FuturesSeries" -> "futuresSeries" and "ProviderCHMint" -> "providerCHMint".
//   - plural: uncountable words are returned unchanged, a few irregular words are special-cased, otherwise the
//     first matching suffix rule (tried from the last rule to the first) replaces the ending, else "s" is added.

/** English words the crate treats as uncountable (compared with the whole type name, case-sensitively). */
const UNCOUNTABLE = new Set(
  (
    "accommodation adulthood advertising advice aggression aid air aircraft alcohol anger applause arithmetic " +
    "assistance athletics bacon baggage beef biology blood botany bread butter carbon cardboard cash chalk chaos " +
    "chess crossroads countryside dancing deer dignity dirt dust economics education electricity engineering " +
    "enjoyment envy equipment ethics evidence evolution fame fiction flour flu food fuel fun furniture gallows " +
    "garbage garlic genetics gold golf gossip grammar gratitude grief guilt gymnastics happiness hardware harm " +
    "hate hatred health heat help homework honesty honey hospitality housework humour hunger hydrogen ice " +
    "importance inflation information innocence iron irony jam jewelry judo karate knowledge lack laughter lava " +
    "leather leisure lightning linguine linguini linguistics literature litter livestock logic loneliness luck " +
    "luggage macaroni machinery magic management mankind marble mathematics mayonnaise measles methane milk money " +
    "mud music mumps nature news nitrogen nonsense nurture nutrition obedience obesity oxygen pasta patience " +
    "physics poetry pollution poverty pride psychology publicity punctuation quartz racism relaxation reliability " +
    "research respect revenge rice rubbish rum safety scenery seafood seaside series shame sheep shopping sleep " +
    "smoke smoking snow soap software soil spaghetti species steam stuff stupidity sunshine symmetry tennis thirst " +
    "thunder timber traffic transportation trust underwear unemployment unity validity veal vegetation " +
    "vegetarianism vengeance violence vitality warmth wealth weather welfare wheat wildlife wisdom yoga zinc zoology"
  ).split(" "),
);

const IRREGULAR = {
  ox: "oxen",
  man: "men",
  woman: "women",
  die: "dice",
  yes: "yeses",
  foot: "feet",
  eave: "eaves",
  goose: "geese",
  tooth: "teeth",
  quiz: "quizzes",
};

// [pattern, replacement]: group 1 is kept, the replacement appended. Listed in the crate's order; tried in reverse.
const RULES = [
  [/(\w*)s$/, "s"],
  [/(\w*([^aeiou]ese))$/, ""],
  [/(\w*(ax|test))is$/, "es"],
  [/(\w*(alias|[^aou]us|tlas|gas|ris))$/, "es"],
  [/(\w*(e[mn]u))s?$/, "s"],
  [/(\w*([^l]ias|[aeiou]las|[emjzr]as|[iu]am))$/, ""],
  [
    /(\w*(alumn|syllab|octop|vir|radi|nucle|fung|cact|stimul|termin|bacill|foc|uter|loc|strat))(?:us|i)$/,
    "i",
  ],
  [/(\w*(alumn|alg|vertebr))(?:a|ae)$/, "ae"],
  [/(\w*(seraph|cherub))(?:im)?$/, "im"],
  [/(\w*(her|at|gr))o$/, "oes"],
  [
    /(\w*(agend|addend|millenni|dat|extrem|bacteri|desiderat|strat|candelabr|errat|ov|symposi|curricul|automat|quor))(?:a|um)$/,
    "a",
  ],
  [
    /(\w*(apheli|hyperbat|periheli|asyndet|noumen|phenomen|criteri|organ|prolegomen|hedr|automat))(?:a|on)$/,
    "a",
  ],
  [/(\w*)sis$/, "ses"],
  [/(\w*(kni|wi|li))fe$/, "ves"],
  [/(\w*(ar|l|ea|eo|oa|hoo))f$/, "ves"],
  [/(\w*([^aeiouy]|qu))y$/, "ies"],
  [/(\w*([^ch][ieo][ln]))ey$/, "ies"],
  [/(\w*(x|ch|ss|sh|zz)es)$/, ""],
  [/(\w*(x|ch|ss|sh|zz))$/, "es"],
  [/(\w*(matr|cod|mur|sil|vert|ind|append))(?:ix|ex)$/, "ices"],
  [/(\w*(m|l)(?:ice|ouse))$/, "ice"],
  [/(\w*(pe)(?:rson|ople))$/, "ople"],
  [/(\w*(child))(?:ren)?$/, "ren"],
  [/(\w*eaux)$/, ""],
];

export function toPlural(word) {
  if (UNCOUNTABLE.has(word)) return word;
  if (Object.hasOwn(IRREGULAR, word)) return IRREGULAR[word];
  for (let i = RULES.length - 1; i >= 0; i--) {
    const m = RULES[i][0].exec(word);
    if (m && m[1] !== undefined) return m[1] + RULES[i][1];
  }
  return word + "s";
}

const isAlnum = (c) => /[\p{L}\p{N}]/u.test(c);
const isLower = (c) => c !== c.toUpperCase() && c === c.toLowerCase();
const isUpper = (c) => c !== c.toLowerCase() && c === c.toUpperCase();

export function toCamelCase(text) {
  let s = text;
  while (s.length && !isAlnum(s[s.length - 1])) s = s.slice(0, -1); // trailing separators dropped
  let out = "";
  let newWord = false;
  let last = " ";
  let seenReal = false;
  for (const c of s) {
    if (!isAlnum(c)) {
      if (seenReal) newWord = true;
      continue;
    }
    seenReal = true;
    if (/\p{N}/u.test(c)) {
      newWord = true;
      out += c;
    } else if (newWord || (isLower(last) && isUpper(c))) {
      // a new word starts upper-case; `last` keeps the letter before it (so "aBC" stays "aBC")
      newWord = false;
      out += c.toUpperCase();
    } else {
      last = c;
      out += c.toLowerCase();
    }
  }
  return out;
}

/** graph-node's [singular, collection] query field names for an entity type. */
export function queryFieldNames(typeName) {
  const singular = toCamelCase(typeName);
  let plural = toCamelCase(toPlural(typeName));
  if (plural === singular) plural += "_collection";
  return [singular, plural];
}
