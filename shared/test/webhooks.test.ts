import { createHmac } from 'node:crypto';
import Stripe from 'stripe';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Task, WebhookEvent } from '../src/schemas/index.ts';
import {
  constructEvent,
  DELIVERY_ID_HEADER,
  EVENT_ID_HEADER,
  parseSignatureHeader,
  SIGNATURE_HEADER,
  type SignatureFailureReason,
  type SignatureHeaderValue,
  signPayload,
  type VerifySignatureOptions,
  verifySignature,
  type WebhookPayload,
  WebhookPayloadError,
  WebhookSignatureError,
} from '../src/webhooks/index.ts';

const SECRET = 'whsec_current_0123456789abcdef';
const OLD_SECRET = 'whsec_rotated_out_fedcba9876543210';
const T = 1_767_225_600; // 2026-01-01T00:00:00Z
const AT_T = () => T * 1000;
const BODY = JSON.stringify({
  id: 'evt_1',
  type: 'task.created',
  created_at: '2026-01-01T00:00:00Z',
  data: { task: { id: 'tsk_1', title: 'Ship it' } },
});

function hmacHex(secret: string, signed: string | Buffer): string {
  return createHmac('sha256', secret).update(signed).digest('hex');
}

function verify(overrides: Partial<VerifySignatureOptions> & { header: SignatureHeaderValue }) {
  return verifySignature({ payload: BODY, secrets: SECRET, now: AT_T, ...overrides });
}

function expectFailure(
  result: ReturnType<typeof verifySignature>,
  reason: SignatureFailureReason,
): asserts result is { ok: false; reason: SignatureFailureReason; message: string } {
  expect(result).toMatchObject({ ok: false, reason });
  if (!result.ok) expect(result.message.length).toBeGreaterThan(10);
}

describe('header names', () => {
  it('are the lowercase names Node uses for incoming headers', () => {
    expect(SIGNATURE_HEADER).toBe('x-service-signature');
    expect(EVENT_ID_HEADER).toBe('x-service-event-id');
    expect(DELIVERY_ID_HEADER).toBe('x-service-delivery-id');
  });
});

describe('signPayload', () => {
  it('emits t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>"> with no spaces', () => {
    const header = signPayload(BODY, SECRET, { timestamp: T });
    expect(header).toBe(`t=${T},v1=${hmacHex(SECRET, `${T}.${BODY}`)}`);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
  });

  it('emits one v1 entry per secret, in the order given', () => {
    const header = signPayload(BODY, [SECRET, OLD_SECRET], { timestamp: T });
    expect(header).toBe(
      `t=${T},v1=${hmacHex(SECRET, `${T}.${BODY}`)},v1=${hmacHex(OLD_SECRET, `${T}.${BODY}`)}`,
    );
  });

  it('signs the bytes of a Buffer exactly as the same text given as a string', () => {
    const body = '{"title":"Café ✓ 日本語 🎉"}';
    expect(signPayload(Buffer.from(body, 'utf8'), SECRET, { timestamp: T })).toBe(
      signPayload(body, SECRET, { timestamp: T }),
    );
  });

  it('defaults the timestamp to the current unix second', () => {
    const before = Math.floor(Date.now() / 1000);
    const parsed = parseSignatureHeader(signPayload(BODY, SECRET));
    const after = Math.floor(Date.now() / 1000);
    expect(parsed!.timestamp).toBeGreaterThanOrEqual(before);
    expect(parsed!.timestamp).toBeLessThanOrEqual(after);
  });

  it('refuses to sign without a secret, with an empty secret, or with a timestamp that is not unix seconds', () => {
    expect(() => signPayload(BODY, [])).toThrow(/at least one webhook secret/);
    expect(() => signPayload(BODY, '')).toThrow(/non-empty string/);
    expect(() => signPayload(BODY, [SECRET, ''])).toThrow(/non-empty string/);
    expect(() => signPayload(BODY, SECRET, { timestamp: 1.5 })).toThrow(RangeError);
    expect(() => signPayload(BODY, SECRET, { timestamp: -1 })).toThrow(RangeError);
    expect(() => signPayload(BODY, SECRET, { timestamp: Number.NaN })).toThrow(RangeError);
  });
});

describe('verifySignature', () => {
  it('accepts a header it signed and returns the signed timestamp', () => {
    const header = signPayload(BODY, SECRET, { timestamp: T });
    expect(verify({ header })).toEqual({ ok: true, timestamp: T });
  });

  describe('secret rotation', () => {
    const header = signPayload(BODY, [SECRET, OLD_SECRET], { timestamp: T });

    it('accepts a two-signature header with either secret alone or both', () => {
      expect(verify({ header, secrets: SECRET }).ok).toBe(true);
      expect(verify({ header, secrets: OLD_SECRET }).ok).toBe(true);
      expect(verify({ header, secrets: [OLD_SECRET, SECRET] }).ok).toBe(true);
    });

    it('accepts a one-signature header when the receiver holds several secrets', () => {
      const oldOnly = signPayload(BODY, OLD_SECRET, { timestamp: T });
      expect(verify({ header: oldOnly, secrets: ['whsec_other', OLD_SECRET] }).ok).toBe(true);
    });

    it('rejects a secret that signed neither entry', () => {
      expectFailure(verify({ header, secrets: 'whsec_someone_else' }), 'signature_mismatch');
    });
  });

  describe('tampering', () => {
    const header = signPayload(BODY, SECRET, { timestamp: T });

    it('rejects a body with one byte changed', () => {
      const bytes = Buffer.from(BODY);
      bytes[bytes.indexOf('Ship')] = 's'.charCodeAt(0);
      expectFailure(verify({ header, payload: bytes }), 'signature_mismatch');
    });

    it('rejects a body with whitespace added or re-serialized', () => {
      expectFailure(verify({ header, payload: `${BODY}\n` }), 'signature_mismatch');
      expectFailure(verify({ header, payload: ` ${BODY}` }), 'signature_mismatch');
      expectFailure(
        verify({ header, payload: JSON.stringify(JSON.parse(BODY), null, 2) }),
        'signature_mismatch',
      );
    });

    it('rejects a signature with one hex digit changed, truncated, or lengthened', () => {
      const signature = parseSignatureHeader(header)!.signatures[0]!;
      const flipped = (signature[0] === 'a' ? 'b' : 'a') + signature.slice(1);
      expectFailure(verify({ header: `t=${T},v1=${flipped}` }), 'signature_mismatch');
      expectFailure(verify({ header: `t=${T},v1=${signature.slice(0, 63)}` }), 'signature_mismatch');
      expectFailure(verify({ header: `t=${T},v1=${signature}00` }), 'signature_mismatch');
    });

    it('rejects a genuine signature moved to another timestamp', () => {
      const signature = parseSignatureHeader(header)!.signatures[0]!;
      expectFailure(verify({ header: `t=${T + 1},v1=${signature}` }), 'signature_mismatch');
    });

    it('rejects a header signed with the wrong secret', () => {
      expectFailure(
        verify({ header: signPayload(BODY, 'whsec_wrong', { timestamp: T }) }),
        'signature_mismatch',
      );
    });

    it('accepts the genuine signature when a forged one precedes it', () => {
      const genuine = parseSignatureHeader(header)!.signatures[0]!;
      expect(verify({ header: `t=${T},v1=${'0'.repeat(64)},v1=${genuine}` }).ok).toBe(true);
    });
  });

  describe('timestamp tolerance (whole seconds)', () => {
    const header = signPayload(BODY, SECRET, { timestamp: T });
    const at = (ms: number) => () => ms;

    it('accepts a delivery exactly at the tolerance, in the past and in the future', () => {
      expect(verify({ header, now: at((T + 300) * 1000) }).ok).toBe(true);
      expect(verify({ header, now: at((T + 300) * 1000 + 999) }).ok).toBe(true);
      expect(verify({ header, now: at((T - 300) * 1000) }).ok).toBe(true);
    });

    it('rejects a timestamp one second older than the tolerance', () => {
      const result = verify({ header, now: at((T + 301) * 1000) });
      expectFailure(result, 'timestamp_too_old');
      expect(result.message).toContain('301 s old');
    });

    it('rejects a timestamp one second further in the future than the tolerance', () => {
      const result = verify({ header, now: at((T - 301) * 1000) });
      expectFailure(result, 'timestamp_in_future');
      expect(result.message).toContain('301 s in the future');
    });

    it('applies a custom tolerance', () => {
      expect(verify({ header, toleranceSeconds: 10, now: at((T + 10) * 1000) }).ok).toBe(true);
      expectFailure(verify({ header, toleranceSeconds: 10, now: at((T + 11) * 1000) }), 'timestamp_too_old');
      expectFailure(
        verify({ header, toleranceSeconds: 10, now: at((T - 11) * 1000) }),
        'timestamp_in_future',
      );
      expect(verify({ header, toleranceSeconds: 3600, now: at((T + 3600) * 1000) }).ok).toBe(true);
    });

    it('uses the real clock when none is injected', () => {
      const fresh = signPayload(BODY, SECRET);
      expect(verifySignature({ payload: BODY, header: fresh, secrets: SECRET }).ok).toBe(true);
      expectFailure(verifySignature({ payload: BODY, header, secrets: SECRET }), 'timestamp_too_old');
    });

    it('reports a bad signature rather than the timestamp of an unauthenticated header', () => {
      const forged = signPayload(BODY, 'whsec_wrong', { timestamp: T });
      expectFailure(verify({ header: forged, now: at((T + 10_000) * 1000) }), 'signature_mismatch');
    });

    it('requires a positive finite tolerance', () => {
      for (const toleranceSeconds of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
        expect(() => verify({ header, toleranceSeconds })).toThrow(RangeError);
      }
    });

    it('requires the clock to return a number of milliseconds', () => {
      expect(() => verify({ header, now: () => Number.NaN })).toThrow(/unix milliseconds/);
    });
  });

  describe('headers', () => {
    const header = signPayload(BODY, SECRET, { timestamp: T });
    const signature = parseSignatureHeader(header)!.signatures[0]!;

    it('reports a missing header', () => {
      expectFailure(verify({ header: undefined }), 'missing_header');
      expectFailure(verify({ header: null }), 'missing_header');
      expectFailure(verify({ header: [] }), 'missing_header');
    });

    it('accepts the header as a one-element array and rejects several headers', () => {
      expect(verify({ header: [header] }).ok).toBe(true);
      expectFailure(verify({ header: [header, header] }), 'malformed_header');
    });

    it.each([
      ['empty', ''],
      ['only spaces', '   '],
      ['missing t', `v1=${signature}`],
      ['empty t', `t=,v1=${signature}`],
      ['non-numeric t', `t=abc,v1=${signature}`],
      ['fractional t', `t=${T}.5,v1=${signature}`],
      ['negative t', `t=-${T},v1=${signature}`],
      ['t with leading zero', `t=0${T},v1=${signature}`],
      ['t beyond safe integers', `t=99999999999999999999,v1=${signature}`],
      ['duplicate t', `t=${T},t=${T},v1=${signature}`],
      ['conflicting t', `t=${T + 1},${header}`],
      ['space after the comma', `t=${T}, v1=${signature}`],
      ['space around the equals sign', `t = ${T},v1=${signature}`],
      ['trailing newline', `${header}\n`],
      ['trailing comma', `${header},`],
      ['empty entry', `t=${T},,v1=${signature}`],
      ['entry without =', `${header},garbage`],
      ['entry with two =', `t=${T},v1=${signature}=`],
      ['empty v1', `t=${T},v1=`],
      ['not a header at all', 'Bearer abc.def'],
    ])('rejects a malformed header: %s', (_name, malformed) => {
      expectFailure(verify({ header: malformed }), 'malformed_header');
    });

    it('reports a well-formed header without a v1 signature', () => {
      expectFailure(verify({ header: `t=${T}` }), 'no_signatures');
      expectFailure(verify({ header: `t=${T},v0=${signature}` }), 'no_signatures');
    });

    it('ignores entries of other schemes', () => {
      expect(verify({ header: `t=${T},v0=${'f'.repeat(64)},v1=${signature}` }).ok).toBe(true);
      expect(verify({ header: `v2=abc,${header},v0=zzz` }).ok).toBe(true);
    });

    it('accepts uppercase hex, which is the same signature', () => {
      expect(verify({ header: `t=${T},v1=${signature.toUpperCase()}` }).ok).toBe(true);
    });
  });

  describe('payload types', () => {
    const text = JSON.stringify({ title: 'Réunion à 14 h ✓ — 日本語 🎉', note: 'naïve façade' });
    const utf8 = Buffer.from(text, 'utf8');

    it.each<[string, WebhookPayload, WebhookPayload]>([
      ['string, verified as Buffer', text, utf8],
      ['Buffer, verified as string', utf8, text],
      ['string, verified as a plain Uint8Array', text, new Uint8Array(utf8)],
      ['plain Uint8Array, verified as string', new Uint8Array(utf8), text],
    ])('signs a UTF-8 body given as a %s', (_name, signed, received) => {
      const header = signPayload(signed, SECRET, { timestamp: T });
      expect(verify({ header, payload: received }).ok).toBe(true);
    });

    it('rejects the same text in another encoding', () => {
      const header = signPayload(text, SECRET, { timestamp: T });
      expectFailure(verify({ header, payload: Buffer.from(text, 'latin1') }), 'signature_mismatch');
      expectFailure(verify({ header, payload: Buffer.from(text, 'utf16le') }), 'signature_mismatch');
    });

    it('verifies bytes that are not valid UTF-8 as they are', () => {
      const bytes = Buffer.from([0x7b, 0xff, 0xfe, 0x7d]);
      const header = signPayload(bytes, SECRET, { timestamp: T });
      expect(verify({ header, payload: bytes }).ok).toBe(true);
      expectFailure(verify({ header, payload: bytes.toString('utf8') }), 'signature_mismatch');
    });

    it('throws when given a parsed body instead of the raw one', () => {
      const header = signPayload(BODY, SECRET, { timestamp: T });
      const parsed = JSON.parse(BODY) as unknown as WebhookPayload;
      expect(() => verify({ header, payload: parsed })).toThrow(/raw request body/);
    });
  });

  it('throws without secrets, as it could never pass', () => {
    const header = signPayload(BODY, SECRET, { timestamp: T });
    expect(() => verify({ header, secrets: [] })).toThrow(/at least one webhook secret/);
    expect(() => verify({ header, secrets: '' })).toThrow(/non-empty string/);
  });
});

describe('parseSignatureHeader', () => {
  it('returns the timestamp and every v1 signature in order', () => {
    expect(parseSignatureHeader(`t=${T},v1=aa,v0=bb,v1=cc`)).toEqual({
      timestamp: T,
      signatures: ['aa', 'cc'],
    });
    expect(parseSignatureHeader('t=0')).toEqual({ timestamp: 0, signatures: [] });
  });

  it('returns null for a header that does not follow the format', () => {
    expect(parseSignatureHeader('')).toBeNull();
    expect(parseSignatureHeader('v1=aa')).toBeNull();
    expect(parseSignatureHeader(`t=${T}, v1=aa`)).toBeNull();
    expect(parseSignatureHeader(`t=${T},t=${T}`)).toBeNull();
  });
});

describe('interoperability with the stripe package', () => {
  const stripe = new Stripe('sk_test_x');

  it('stripe verifies a header we sign, with each secret of a rotation', () => {
    const header = signPayload(BODY, [SECRET, OLD_SECRET]);
    for (const secret of [SECRET, OLD_SECRET]) {
      expect(stripe.webhooks.constructEvent(BODY, header, secret, 300)).toEqual(JSON.parse(BODY));
    }
    expect(() => stripe.webhooks.constructEvent(BODY, header, 'whsec_wrong', 300)).toThrow(
      Stripe.errors.StripeSignatureVerificationError,
    );
  });

  it('stripe verifies a non-ASCII body we sign, given as a Buffer', () => {
    const body = JSON.stringify({ id: 'evt_2', title: 'Café ✓ 日本語 🎉' });
    const header = signPayload(Buffer.from(body), SECRET);
    expect(stripe.webhooks.constructEvent(Buffer.from(body), header, SECRET, 300)).toEqual(JSON.parse(body));
  });

  it('we verify a header stripe generates, and produce the same header for the same inputs', () => {
    const body = JSON.stringify({ id: 'evt_3', title: 'Réunion ✓' });
    const header = stripe.webhooks.generateTestHeaderString({ payload: body, secret: SECRET, timestamp: T });
    expect(verifySignature({ payload: body, header, secrets: SECRET, now: AT_T })).toEqual({
      ok: true,
      timestamp: T,
    });
    expect(
      verifySignature({ payload: Buffer.from(body), header, secrets: [OLD_SECRET, SECRET], now: AT_T }).ok,
    ).toBe(true);
    expect(signPayload(body, SECRET, { timestamp: T })).toBe(header);
  });
});

describe('constructEvent', () => {
  const task: Task = {
    id: 'tsk_1',
    content_type: 'task',
    title: 'Ship it',
    notes: null,
    board_id: 'brd_1',
    board_name: 'Launch',
    list_id: 'lst_1',
    list_name: 'To do',
    completed: false,
    shade: 'none',
    custom_fields: [],
    due_at: null,
    created_at: '2026-01-01T00:00:00Z',
    thread_ids: [],
    contact_id: null,
    deal: null,
    assignee: null,
    first_thread: null,
  };
  const event = { id: 'evt_1', type: 'task.created', created_at: '2026-01-01T00:00:00Z', data: { task } };
  const body = JSON.stringify(event);
  const header = signPayload(body, SECRET, { timestamp: T });

  function thrownBy(run: () => unknown): unknown {
    try {
      run();
    } catch (error) {
      return error;
    }
    throw new Error('expected a throw');
  }

  it('returns the verified body as a typed event', () => {
    const result = constructEvent(body, header, SECRET, { now: AT_T });
    expectTypeOf(result).toEqualTypeOf<WebhookEvent>();
    expect(result).toEqual(event);
  });

  it('accepts a Buffer body, a one-element header array and several secrets', () => {
    expect(constructEvent(Buffer.from(body), [header], [OLD_SECRET, SECRET], { now: AT_T })).toEqual(event);
  });

  it('keeps an event type added after this client was written', () => {
    const later = { id: 'evt_2', type: 'board.renamed', created_at: '2026-01-01T00:00:00Z', data: { x: 1 } };
    const laterBody = JSON.stringify(later);
    const laterHeader = signPayload(laterBody, SECRET, { timestamp: T });
    expect(constructEvent(laterBody, laterHeader, SECRET, { now: AT_T })).toEqual(later);
  });

  it('throws WebhookSignatureError with the reason before looking at the body', () => {
    const error = thrownBy(() => constructEvent('not json', header, SECRET, { now: AT_T }));
    expect(error).toBeInstanceOf(WebhookSignatureError);
    expect(error).toMatchObject({ name: 'WebhookSignatureError', reason: 'signature_mismatch' });
    expect(thrownBy(() => constructEvent(body, undefined, SECRET))).toMatchObject({
      reason: 'missing_header',
    });
  });

  it('passes the tolerance and clock to verification', () => {
    const late = () => (T + 61) * 1000;
    expect(
      thrownBy(() => constructEvent(body, header, SECRET, { toleranceSeconds: 60, now: late })),
    ).toMatchObject({
      reason: 'timestamp_too_old',
    });
    expect(constructEvent(body, header, SECRET, { toleranceSeconds: 61, now: late })).toEqual(event);
  });

  it('throws WebhookPayloadError for a valid signature over a body that is not JSON', () => {
    const notJson = '{"id":"evt_1",';
    const error = thrownBy(() =>
      constructEvent(notJson, signPayload(notJson, SECRET, { timestamp: T }), SECRET, { now: AT_T }),
    );
    expect(error).toBeInstanceOf(WebhookPayloadError);
    expect(error).not.toBeInstanceOf(WebhookSignatureError);
    expect((error as Error).message).toMatch(/not valid JSON/);
  });

  it('throws WebhookPayloadError for a signed body that is not UTF-8', () => {
    const bytes = Buffer.from([0x7b, 0xff, 0x7d]);
    const error = thrownBy(() =>
      constructEvent(bytes, signPayload(bytes, SECRET, { timestamp: T }), SECRET, { now: AT_T }),
    );
    expect(error).toBeInstanceOf(WebhookPayloadError);
    expect((error as Error).message).toMatch(/UTF-8/);
  });

  it('throws WebhookPayloadError for signed JSON that is not an event', () => {
    for (const invalid of [{ ...event, data: {} }, { ...event, created_at: 'yesterday' }, [event], null]) {
      const invalidBody = JSON.stringify(invalid);
      const signed = signPayload(invalidBody, SECRET, { timestamp: T });
      const error = thrownBy(() => constructEvent(invalidBody, signed, SECRET, { now: AT_T }));
      expect(error).toBeInstanceOf(WebhookPayloadError);
      expect((error as Error).message).toMatch(/not a valid event/);
    }
  });
});
