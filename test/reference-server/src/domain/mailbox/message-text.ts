// Text of a message as any mailbox writes it (drafts, replies, sent mail), whatever the provider.

/** `Re: ` and a thread's subject, unless it already starts so (as mail clients write it). */
export function replySubject(subject: string | null): string | null {
  return subject === null || /^re:/i.test(subject) ? subject : `Re: ${subject}`;
}

/** A body as a draft or sent message stores it: HTML in body_html, plain text in body_text. */
export function bodyParts(
  body: string,
  isHtml: boolean,
): { body_text: string | null; body_html: string | null } {
  return isHtml ? { body_text: null, body_html: body } : { body_text: body, body_html: null };
}
