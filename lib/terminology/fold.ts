/**
 * How the catalogue matches what staff type (docs/decisions/086): codes folded to lower case with
 * dots, dashes and spaces removed ("M54.5", "m545" and "M 54 5" are one code); words folded to lower
 * case with Arabic diacritics and tatweel removed and alef, yaa and taa-marbuta forms joined, so a
 * search need not match the file's spelling. Pure: the import, the search and their tests share it.
 */

/** A code as the search compares it: lower case, letters and digits only. */
export function foldCode(code: string): string {
  return code.normalize("NFKC").toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
}

/** Text as the search compares it. */
export function foldText(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\u064B-\u0652\u0670\u0640]/g, "")
    .replace(/[أإآٱ]/g, "ا")
    .replace(/ى/g, "ي")
    .replace(/ة/g, "ه");
}

/** Words of a folded text: runs of letters and digits. */
export function wordsOf(text: string): string[] {
  return foldText(text).match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Arabic words behind the article or a joined particle ("الصدر" → "صدر", "وبالدم" → "دم"). */
const ARABIC_PREFIX = /^(?:وال|بال|كال|فال|لل|ال)(?=[\u0621-\u064A]{2,})/;

/**
 * The indexed words of a code's descriptions: every word, plus each Arabic word without its
 * article, so "صدر" finds "أشعة الصدر" (the text-search vector matches whole words and prefixes).
 */
export function searchWordsOf(...texts: string[]): string {
  const words = new Set<string>();
  for (const text of texts) {
    for (const word of wordsOf(text)) {
      words.add(word);
      const bare = word.replace(ARABIC_PREFIX, "");
      if (bare !== word) words.add(bare);
    }
  }
  return [...words].join(" ");
}

/**
 * A typed query as a prefix text-search query (`w1:* & w2:*`), or undefined when it has no word.
 * Only letters and digits reach it, so nothing the user types can change the query's syntax.
 */
export function prefixQuery(query: string): string | undefined {
  const words = wordsOf(query)
    .map((w) => w.replace(ARABIC_PREFIX, ""))
    .slice(0, 8);
  return words.length ? words.map((w) => `${w}:*`).join(" & ") : undefined;
}
