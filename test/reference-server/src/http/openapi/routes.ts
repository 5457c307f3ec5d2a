// GET /v2/openapi.json: the OpenAPI document, built on the first request (not at start-up: tests start
// many servers) and kept as JSON text. No credentials.
import { service } from '@threadwork/shared/operations';
import type { FastifyInstance } from 'fastify';
import { route } from '../route.ts';

let documentText: string | undefined;

async function documentJson(): Promise<string> {
  if (documentText === undefined) {
    // Loaded on first use too: the schema conversion code stays off the start-up path.
    const { buildDocument } = await import('./document.ts');
    documentText = JSON.stringify(buildDocument());
  }
  return documentText;
}

export async function openApiRoutes(app: FastifyInstance): Promise<void> {
  route(app, service.openApiDocument, async ({ reply }) =>
    reply
      .code(200)
      .type('application/json; charset=utf-8')
      .send(await documentJson()),
  );
}
