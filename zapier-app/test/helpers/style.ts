/** Zapier's publishing style for labels: Title Case, small words in lower case after the first. */
const SMALL_WORDS = new Set([
  'a',
  'an',
  'and',
  'as',
  'by',
  'or',
  'to',
  'of',
  'in',
  'on',
  'from',
  'the',
  'for',
]);

export function isTitleCase(label: string): boolean {
  return label
    .split(/\s+/)
    .every((word, index) => (index > 0 && SMALL_WORDS.has(word)) || /^[A-Z0-9(]/.test(word));
}
