/**
 * The v2 body of a stored event, `{ id, type, created_at, data }`: the very bytes JSON.stringify gives
 * for that object, built around the stored data text so every attempt sends (and signs) the same bytes.
 */
export function eventBody(event: { id: string; type: string; created_at: string; data: string }): string {
  const { id, type, created_at } = event;
  return `{"id":${JSON.stringify(id)},"type":${JSON.stringify(type)},"created_at":${JSON.stringify(created_at)},"data":${event.data}}`;
}
