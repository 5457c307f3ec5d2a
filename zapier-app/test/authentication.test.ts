import nock from 'nock';
import { describe, expect, it } from 'vitest';
import {
  appTester,
  authData,
  authTest,
  CREDENTIALS,
  connectionLabel,
  FRESH_TOKEN,
  jwt,
  ORIGIN,
  rejection,
  sessionPerform,
  zapierMessage,
} from './helpers/auth.ts';
import { strictNock } from './helpers/nock.ts';

const QUERY = {
  email: CREDENTIALS.email,
  api_key: CREDENTIALS.api_key,
  api_secret: CREDENTIALS.api_secret,
  api_key_name: CREDENTIALS.api_key_name,
};

strictNock();

function tokenEndpoint() {
  return nock(ORIGIN, { badheaders: ['x-access-token'] })
    .post('/auth/api_token', QUERY)
    .query(QUERY);
}

const exchange = (credentials: typeof CREDENTIALS) =>
  appTester(sessionPerform, { authData: { ...credentials } });

describe('session auth', () => {
  it('exchanges the credentials at /auth/api_token (query and body, no token sent) for the session key', async () => {
    const token = jwt(1200, 'minted');
    tokenEndpoint().reply(200, { 'x-access-token': token });
    const result = await appTester(sessionPerform, {
      authData: { ...CREDENTIALS },
    });
    expect(result).toEqual({ sessionKey: token });
  });

  it('never sends the stale token to the token endpoint', async () => {
    const token = jwt(1200, 'minted');
    tokenEndpoint().reply(200, { 'x-access-token': token });
    const result = await appTester(sessionPerform, {
      authData: authData(jwt(-10, 'stale')),
    });
    expect(result).toEqual({ sessionKey: token });
  });

  it('answers rejected credentials: the key may have been revoked, reconnect; never which part was wrong', async () => {
    tokenEndpoint().reply(401, {
      error: { code: 'unauthenticated', message: 'invalid api_secret', request_id: 'req_1' },
    });
    const error = await rejection(appTester(sessionPerform, { authData: { ...CREDENTIALS } }));
    const message = zapierMessage(error);
    expect(message).toContain('this key may have been revoked: reconnect');
    expect(message).toContain(`Create one in your account's API keys at ${ORIGIN}/keys`);
    expect(message).toContain('check the email, the key name, and the API key and secret');
    expect(message).not.toContain('invalid api_secret');
  });

  it('says a URL that has no token endpoint is not the service', async () => {
    nock(ORIGIN).post('/auth/api_token').query(true).reply(404, '<html>Not Found</html>');
    const error = await rejection(appTester(sessionPerform, { authData: { ...CREDENTIALS } }));
    expect(zapierMessage(error)).toMatch(/https:\/\/tw\.example\.test is not the service/);
  });

  it('says a URL answering something else than a token is not the service', async () => {
    nock(ORIGIN).post('/auth/api_token').query(true).reply(200, '<!doctype html><p>Welcome</p>');
    const error = await rejection(appTester(sessionPerform, { authData: { ...CREDENTIALS } }));
    expect(zapierMessage(error)).toContain('is not the service');
  });

  it('tells a service that fails apart from one that is not the service, and lets Zapier retry a 429', async () => {
    nock(ORIGIN)
      .post('/auth/api_token')
      .query(true)
      .reply(503, { error: { code: 'internal_error', message: 'down', request_id: 'r' } });
    const down = await rejection(exchange(CREDENTIALS));
    expect(zapierMessage(down)).toContain('could not sign in right now (HTTP 503)');
    nock(ORIGIN)
      .post('/auth/api_token')
      .query(true)
      .reply(
        429,
        { error: { code: 'rate_limited', message: 'slow', request_id: 'r' } },
        { 'retry-after': '3' },
      );
    const throttled = await rejection(exchange(CREDENTIALS));
    expect(throttled.name).toBe('ThrottledError');
  });

  it('says what is wrong with a service URL that is not a URL, without sending anything', async () => {
    const error = await rejection(
      appTester(sessionPerform, {
        authData: { ...CREDENTIALS, origin: 'the service' },
      }),
    );
    expect(zapierMessage(error)).toBe(
      '"the service" is not a web address. Enter the address you open the service at, e.g. https://app.example.com.',
    );
  });

  it.each([
    ['a page of the service, pasted from the browser', `${ORIGIN}/mail/18c2f0a1b2c3d4e5?tab=1#top`],
    ['the address without https://', 'tw.example.test'],
    ['an API root', `${ORIGIN}/api/v1/`],
  ])('understands %s as the service origin', async (_what, origin) => {
    const token = jwt(1200, 'minted');
    tokenEndpoint().reply(200, { 'x-access-token': token });
    expect(await exchange({ ...CREDENTIALS, origin } as typeof CREDENTIALS)).toEqual({ sessionKey: token });
  });

  it('refuses http:// for a service on another computer (the key would travel unencrypted), by name', async () => {
    const error = await rejection(
      exchange({ ...CREDENTIALS, origin: 'http://tw.example.test/mail' } as never),
    );
    expect(zapierMessage(error)).toMatch(
      /^http:\/\/tw\.example\.test uses http:\/\/, which would send the API key unencrypted: use its https:\/\/ address/,
    );
  });

  it('tests the connection with GET /v2/me (legacy token auth) and labels it with name and email', async () => {
    nock(ORIGIN, { reqheaders: { 'x-access-token': FRESH_TOKEN } })
      .get('/v2/me')
      .reply(200, {
        data: { user_id: 'usr_ada', email: 'ada@example.com', display_name: 'Ada Lovelace' },
        meta: { request_id: 'req_me' },
      });
    const me = await appTester(authTest, { authData: authData() });
    expect(me).toEqual({ user_id: 'usr_ada', email: 'ada@example.com', display_name: 'Ada Lovelace' });
    const label = await appTester(connectionLabel, {
      authData: authData(),
      inputData: me,
    });
    expect(label).toBe('Ada Lovelace (ada@example.com)');
  });

  it('tests a connection that has no session token yet (a first `invoke auth test`) by exchanging first', async () => {
    const minted = jwt(1200, 'minted');
    tokenEndpoint().reply(200, { 'x-access-token': minted });
    nock(ORIGIN, { reqheaders: { 'x-access-token': minted } })
      .get('/v2/me')
      .reply(200, {
        data: { user_id: 'usr_ada', email: 'ada@example.com', display_name: 'Ada Lovelace' },
        meta: { request_id: 'req_me' },
      });
    const { sessionKey: _none, ...credentials } = authData();
    const me = await appTester(authTest, { authData: credentials });
    expect(me).toMatchObject({ email: 'ada@example.com' });
  });

  it('asks for a refresh before sending a request with a token about to expire', async () => {
    // No interceptor: a request would fail the test (net connect is disabled).
    const error = await rejection(appTester(authTest, { authData: authData(jwt(30)) }));
    expect(error.name).toBe('RefreshAuthError');
  });

  it('turns a 401 from the service into RefreshAuthError', async () => {
    nock(ORIGIN)
      .get('/v2/me')
      .reply(401, { error: { code: 'unauthenticated', message: 'token expired', request_id: 'req_2' } });
    const error = await rejection(appTester(authTest, { authData: authData() }));
    expect(error.name).toBe('RefreshAuthError');
  });

  it('refresh flow: stale token, then a new session key, then the request with the new key', async () => {
    const stale = jwt(-60, 'stale');
    const first = await rejection(appTester(authTest, { authData: authData(stale) }));
    expect(first.name).toBe('RefreshAuthError');

    const minted = jwt(1200, 'minted');
    tokenEndpoint().reply(200, { 'x-access-token': minted });
    const { sessionKey } = await appTester(sessionPerform, {
      authData: authData(stale),
    });
    expect(sessionKey).toBe(minted);

    nock(ORIGIN, { reqheaders: { 'x-access-token': minted } })
      .get('/v2/me')
      .reply(200, {
        data: { user_id: 'usr_ada', email: 'ada@example.com', display_name: 'Ada Lovelace' },
        meta: { request_id: 'req_me' },
      });
    const me = await appTester(authTest, { authData: authData(sessionKey) });
    expect(me.display_name).toBe('Ada Lovelace');
  });
});
