import { describe, expect, it } from 'vitest';
import { caseName, type OperationCase } from './cases.ts';
import { authData, errorBody, mockService, perform } from './support.ts';

/**
 * The tests every action and search passes, from its case: the exact requests and the output, the request
 * count, each service error as a Zapier error that says what to do, and a rejected session.
 */
export function operationSuite(cases: OperationCase[]): void {
  describe.each(cases)('$kind $key', (entry) => {
    it(`${caseName(entry)}: sends exactly the expected requests and returns the object`, async () => {
      const service = mockService(entry.requests);
      const result = await perform(entry.kind, entry.key, entry.inputData, entry.meta);
      expect(result).toEqual(entry.output);
      service.done();
      expect(service.count()).toBe(entry.requests.length);
    });

    it(`${caseName(entry)}: makes one request with a fresh session, unless it must read first`, () => {
      if (entry.moreRequests === undefined) expect(entry.requests).toHaveLength(1);
      else expect(entry.requests.length).toBeGreaterThan(1);
    });

    // Every service error reaches the Zap builder as a Zapier error that says what to do.
    const failures = [
      {
        what: 'an unpaid subscription',
        status: 402,
        body: errorBody('subscription_required', 'the team has no paid subscription'),
        message: /no active paid subscription.*renew the plan/,
      },
      {
        what: 'a missing scope',
        status: 403,
        body: errorBody('insufficient_scope', 'this key lacks the scope tasks.write', {
          required_scopes: ['tasks.write'],
        }),
        message:
          /lacks the \\?"Create and change tasks\\?" permission \(tasks\.write\).*Create a key with \\?"Create and change tasks\\?" ticked in your account's API keys at https:\/\/tw\.example\.test\/keys .*reconnect this Zapier connection/,
      },
      {
        what: 'a disconnected mailbox',
        status: 409,
        body: errorBody('mailbox_not_connected', 'no mailbox is connected'),
        message: /No mailbox is connected.*Connect your mailbox/,
      },
      {
        what: 'a validation error',
        status: 400,
        body: errorBody('validation_error', 'invalid body', [
          { path: 'title', message: 'must not be empty' },
        ]),
        message: /Title: must not be empty/,
      },
    ];
    it.each(failures)(
      `${caseName(entry)}: $what becomes a Zapier error that says what to do`,
      async (failure) => {
        const [first] = entry.requests;
        const service = mockService([{ ...first!, status: failure.status, reply: failure.body }]);
        const error = await perform(entry.kind, entry.key, entry.inputData, entry.meta).catch(
          (caught: Error) => caught,
        );
        expect(error).toBeInstanceOf(Error);
        expect((error as Error).message).toMatch(failure.message);
        // No credential of the connection in any message.
        for (const secret of [authData.api_key, authData.api_secret, authData.sessionKey]) {
          expect((error as Error).message).not.toContain(secret);
        }
        service.done();
        expect(service.count()).toBe(1);
      },
    );

    it(`${caseName(entry)}: a rejected session asks Zapier to renew it, after one request`, async () => {
      const [first] = entry.requests;
      const service = mockService([
        { ...first!, status: 401, reply: errorBody('unauthenticated', 'the session token has expired') },
      ]);
      const error = await perform(entry.kind, entry.key, entry.inputData, entry.meta).catch(
        (caught) => caught,
      );
      expect(error).toMatchObject({ name: 'RefreshAuthError' });
      service.done();
      expect(service.count()).toBe(1);
    });
  });
}
