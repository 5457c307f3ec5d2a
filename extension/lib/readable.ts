/**
 * What an error message may show a user. The shared client already redacts credentials; this is the UI's
 * own guard: a URL becomes its host (a token endpoint's query string never reaches the screen), anything
 * shaped like `secret=…`/`token=…` is masked, and the text is cut to a readable length.
 */
const URL_PATTERN = /\b[a-z][a-z\d+.-]*:\/\/[^\s"'<>()]+/gi;
const SECRET_PARAM = /\b(api_secret|api_key|secret|token|password|x-access-token)=[^&\s"']+/gi;
export const DETAIL_LIMIT = 180;

export function readableDetail(message: string): string {
  const text = message
    .replace(URL_PATTERN, (url) => {
      try {
        return new URL(url).host || 'the service';
      } catch {
        return 'the service';
      }
    })
    .replace(SECRET_PARAM, '$1=***')
    // "POST host failed: …" reads as "host failed: …": the method means nothing to a mailbox user.
    .replace(/^(GET|POST|PUT|PATCH|DELETE) /, '')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > DETAIL_LIMIT ? `${text.slice(0, DETAIL_LIMIT - 1).trimEnd()}…` : text;
}
