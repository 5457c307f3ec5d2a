// POST /auth/api_token: exchanges a legacy key (email, api_key, api_secret, api_key_name; from the
// query string or the JSON body) for a v1 session token.
import { sessionToken } from '@threadwork/shared/operations';
import { V1TokenRequest } from '@threadwork/shared/schemas';
import type { FastifyInstance } from 'fastify';
import { ServiceError } from '../domain/errors.ts';
import { digestsEqual, hashSecret, secretsEqual } from '../domain/secrets.ts';
import { findLegacyKeyByName } from '../storage/credentials.ts';
import { findUserByEmail } from '../storage/users.ts';
import { route } from './route.ts';
import { parseRequest } from './validate.ts';

/** 401 naming the field to fix (the token endpoint is the only place a user types these). */
function wrong(field: keyof V1TokenRequest, message: string): ServiceError {
  return new ServiceError('unauthenticated', message, { field });
}

export async function authTokenRoutes(app: FastifyInstance): Promise<void> {
  route(app, sessionToken, async ({ query, body }) => {
    // Each parameter from the body when it is there, else from the query string.
    const input = parseRequest(V1TokenRequest, { ...query, ...body }, 'credentials');
    const { db, tokens } = app.ctx;
    const user = await findUserByEmail(db, input.email);
    if (!user) throw wrong('email', `no account with the email ${input.email}`);
    const key = await findLegacyKeyByName(db, user.id, input.api_key_name);
    if (!key) throw wrong('api_key_name', `no API key named "${input.api_key_name}" for ${input.email}`);
    if (key.api_key === null || !secretsEqual(key.api_key, input.api_key)) {
      throw wrong('api_key', `the API key does not match the key named "${input.api_key_name}"`);
    }
    if (!digestsEqual(key.secret_hash, hashSecret(input.api_secret))) {
      throw wrong('api_secret', `the API secret does not match the key named "${input.api_key_name}"`);
    }
    return { 'x-access-token': tokens.issue(user.id, key.id).token };
  });
}
