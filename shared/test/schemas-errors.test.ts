import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SCOPES,
  ERROR_CODES,
  ERROR_STATUS,
  ErrorBody,
  ErrorCode,
  OPT_IN_SCOPES,
  SCOPES,
  Scope,
  ValidationIssue,
} from '../src/schemas/index.ts';
import { parseOk, rejectedPaths } from './schema-examples.ts';

describe('error codes', () => {
  /** The statuses docs/errors.md records, code by code. */
  const expected = {
    validation_error: 400,
    invalid_json: 400,
    invalid_request: 400,
    unauthenticated: 401,
    subscription_required: 402,
    insufficient_scope: 403,
    forbidden: 403,
    not_found: 404,
    idempotency_conflict: 409,
    idempotency_in_progress: 409,
    mailbox_not_connected: 409,
    mailbox_reauth_required: 409,
    payload_too_large: 413,
    unsupported_media_type: 415,
    rate_limited: 429,
    internal_error: 500,
    service_unavailable: 503,
  };

  it('maps every code to its HTTP status, and no other code', () => {
    expect(ERROR_STATUS).toEqual(expected);
    expect([...ERROR_CODES].sort()).toEqual(Object.keys(expected).sort());
  });

  it('accepts exactly the known codes as an ErrorCode', () => {
    for (const code of Object.keys(expected)) expect(ErrorCode.parse(code)).toBe(code);
    expect(ErrorCode.safeParse('teapot').success).toBe(false);
  });
});

describe('ErrorBody', () => {
  const validation = {
    error: {
      code: 'validation_error',
      message: 'title: must not be empty',
      request_id: 'req_7f3a',
      details: [{ path: 'title', message: 'must not be empty' }],
    },
  };

  it('parses a validation error with its details', () => {
    expect(parseOk(ErrorBody, validation)).toEqual(validation);
    expect(parseOk(ValidationIssue, validation.error.details[0])).toEqual({
      path: 'title',
      message: 'must not be empty',
    });
  });

  it('parses an error without request id or details, and one with a code added later', () => {
    const bare = { error: { code: 'not_found', message: 'Not found' } };
    expect(parseOk(ErrorBody, bare)).toEqual(bare);
    const later = {
      error: { code: 'account_locked', message: 'Locked', hint: 'contact support' },
      trace: 't',
    };
    expect(parseOk(ErrorBody, later)).toEqual(later);
  });

  it('keeps details of any shape', () => {
    const scope = {
      error: { code: 'insufficient_scope', message: 'needs tasks.write', details: { scope: 'tasks.write' } },
    };
    expect(parseOk(ErrorBody, scope)).toEqual(scope);
  });

  it('rejects a body without code or message', () => {
    expect(rejectedPaths(ErrorBody, { error: { code: 'not_found' } })).toEqual(['error.message']);
    expect(rejectedPaths(ErrorBody, { error: { message: 'x', code: 404 } })).toEqual(['error.code']);
    expect(rejectedPaths(ErrorBody, { message: 'x' })).toEqual(['error']);
  });
});

describe('scopes', () => {
  const designScopes = [
    'boards.read',
    'boards.write',
    'lists.read',
    'lists.write',
    'tasks.read',
    'tasks.write',
    'customfields.read',
    'customfields.write',
    'email.metadata.read',
    'email.body.read',
    'email.modify',
    'drafts.write',
    'drafts.delete',
    'email.reply',
    'email.send',
    'crm.read',
    'crm.write',
    'ai.read',
    'ai.write',
    'webhooks.manage',
    'keys.manage',
  ];

  it('knows every scope of docs/scopes-and-keys.md', () => {
    expect([...SCOPES].sort()).toEqual([...designScopes].sort());
    expect(Scope.safeParse('email.everything').success).toBe(false);
  });

  it('grants by default every scope except sending mail and deleting drafts', () => {
    const left = SCOPES.filter((scope) => !DEFAULT_SCOPES.includes(scope));
    expect(left.sort()).toEqual(['drafts.delete', 'email.send']);
    expect([...OPT_IN_SCOPES].sort()).toEqual(['drafts.delete', 'email.send']);
    expect(DEFAULT_SCOPES).toHaveLength(designScopes.length - 2);
    expect(new Set(DEFAULT_SCOPES).size).toBe(DEFAULT_SCOPES.length);
  });
});
