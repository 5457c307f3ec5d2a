// The service's length limits (docs/errors.md#lengths): one source for the schemas, the OpenAPI document and
// every client that prefills a value (the extension cuts a subject to MAX_TITLE_LENGTH).
export const MAX_TITLE_LENGTH = 1024;
export const MAX_NAME_LENGTH = 1024;
export const MAX_NOTES_LENGTH = 65_536;
