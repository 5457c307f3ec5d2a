/** Text helpers shared by the mailbox script and the panel (no dependencies: the mailbox script stays small). */

/**
 * At most `limit` characters (UTF-16 units, as the service counts a string's length), with "…" when cut; a
 * character outside the basic plane (an emoji) is never split.
 */
export function cut(text: string, limit: number): string {
  if (text.length <= limit) return text;
  let kept = '';
  for (const character of text) {
    if (kept.length + character.length > limit - 1) break;
    kept += character;
  }
  return `${kept.trimEnd()}…`;
}
