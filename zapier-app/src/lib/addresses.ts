/**
 * Email addresses as people and triggers write them: `Bob Stone <bob@stone.test>`, `"Stone, Carol"
 * <carol@stone.test>`, `mailto:dan@stone.test`, several in one line. The service takes bare addresses.
 */

const EMAIL = /^[^\s@<>",;]+@[^\s@<>",;]+\.[^\s@<>",;]+$/;

/** Whether `text` is a bare email address. */
export function isEmail(text: string): boolean {
  return EMAIL.test(text);
}

/** The items of a line of addresses: split at commas, semicolons and line breaks outside quotes and <…>. */
export function splitAddresses(line: string): string[] {
  const items: string[] = [];
  let current = '';
  let quoted = false;
  let bracketed = false;
  for (const char of line) {
    if (char === '"') quoted = !quoted;
    else if (char === '<' && !quoted) bracketed = true;
    else if (char === '>' && !quoted) bracketed = false;
    if (/[,;\n]/.test(char) && !quoted && !bracketed) {
      items.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  items.push(current);
  return items.map((item) => item.trim()).filter((item) => item !== '');
}

/** `Bob Stone <bob@stone.test>` → `bob@stone.test`; `mailto:bob@stone.test` → `bob@stone.test`. */
export function bareAddress(item: string): string {
  const bracketed = /<([^<>]*)>\s*$/.exec(item);
  return (bracketed?.[1] ?? item).trim().replace(/^mailto:/i, '');
}
