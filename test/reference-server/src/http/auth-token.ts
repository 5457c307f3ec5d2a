// POST /auth/api_token: exchanges a legacy key (email, api_key, api_secret, api_key_name; from the
// query string or the JSON body) for a v1 session token.
import { V1TokenRequest } from '@threadwork/shared/schemas';
import type { FastifyInstance } from 'fastify';
import { ServiceError } from '../domain/errors.ts';
import { digestsEqual, hashSecret, secretsEqual } from '../domain/secrets.ts';
import { parseRequest } from './validate.ts';

const FIELDS = ['email', 'api_key', 'api_secret', 'api_key_name'] as const;

/** Each parameter from the body when it is there, else from the query string. */
function credentialsOf(query: unknown, body: unknown): Record<string, unknown> {
  const fromQuery = (query ?? {}) as Record<string, unknown>;
  const fromBody = body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  return Object.fromEntries(FIELDS.map((field) => [field, fromBody[field] ?? fromQuery[field]]));
}

/** 401 naming the field to fix (the token endpoint is the only place a user types these). */
function wrong(field: (typeof FIELDS)[number], message: string): ServiceError {
  return new ServiceError('unauthenticated', message, { field });
}

export async function authTokenRoutes(app: FastifyInstance): Promise<void> {
  app.post('/auth/api_token', async (request, reply) => {
    const input = parseRequest(V1TokenRequest, credentialsOf(request.query, request.body), 'credentials');
    const { db, tokens } = app.ctx;
    const user = await db
      .selectFrom('users')
      .select(['id'])
      .where('email', '=', input.email)
      .executeTakeFirst();
    if (!user) throw wrong('email', `no account with the email ${input.email}`);
    const key = await db
      .selectFrom('api_keys')
      .select(['id', 'api_key', 'secret_hash'])
      .where('user_id', '=', user.id)
      .where('type', '=', 'legacy')
      .where('name', '=', input.api_key_name)
      .executeTakeFirst();
    if (!key) throw wrong('api_key_name', `no API key named "${input.api_key_name}" for ${input.email}`);
    if (key.api_key === null || !secretsEqual(key.api_key, input.api_key)) {
      throw wrong('api_key', `the API key does not match the key named "${input.api_key_name}"`);
    }
    if (!digestsEqual(key.secret_hash, hashSecret(input.api_secret))) {
      throw wrong('api_secret', `the API secret does not match the key named "${input.api_key_name}"`);
    }
    const { token } = tokens.issue(user.id, key.id);
    return reply.code(200).send({ 'x-access-token': token });
  });
}
