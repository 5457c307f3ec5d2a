import { z } from 'zod';
import { boundedString, DateTime, HexId, NonEmptyString, openEnum, PaginationQuery } from '../common.ts';
import { MAX_NAME_LENGTH } from '../limits.ts';
import { REPLY_MODES } from '../values.ts';

export const EmailAddress = z.looseObject({
  email: z.string(),
  name: z.string().nullable(),
});
export type EmailAddress = z.infer<typeof EmailAddress>;

/** Ids are raw mailbox message ids (hex). Bodies only with include=messages (scope email.body.read). */
export const EmailMessage = z.looseObject({
  id: z.string(),
  subject: z.string().nullable(),
  from: EmailAddress,
  to: z.array(EmailAddress),
  cc: z.array(EmailAddress),
  date: DateTime.nullable(),
  snippet: z.string().nullable(),
  unread: z.boolean(),
  labels: z.array(z.string()),
  body_text: z.string().nullable().optional(),
  body_html: z.string().nullable().optional(),
});
export type EmailMessage = z.infer<typeof EmailMessage>;

export const LinkedTask = z.looseObject({ id: z.string(), title: z.string().nullable() });
export type LinkedTask = z.infer<typeof LinkedTask>;

export const THREAD_DIRECTIONS = ['inbound', 'outbound'] as const;

export const EmailThread = z.looseObject({
  provider: z.string(),
  thread_id: z.string(),
  message_ids: z.array(z.string()),
  subject: z.string().nullable(),
  participants: z.array(EmailAddress),
  latest_message_at: DateTime.nullable(),
  snippet: z.string().nullable(),
  direction: openEnum(THREAD_DIRECTIONS).nullable(),
  unread: z.boolean(),
  /** Present on single-thread GET, omitted from search results. */
  linked_tasks: z.array(LinkedTask).nullable().optional(),
  messages: z.array(EmailMessage).nullable().optional(),
});
export type EmailThread = z.infer<typeof EmailThread>;

export const LABEL_TYPES = ['system', 'user'] as const;

export const EmailLabel = z.looseObject({
  id: z.string(),
  name: z.string().nullable(),
  type: openEnum(LABEL_TYPES),
});
export type EmailLabel = z.infer<typeof EmailLabel>;

export const EmailLabels = z.looseObject({ labels: z.array(EmailLabel) });
export type EmailLabels = z.infer<typeof EmailLabels>;

export const Draft = z.looseObject({
  draft_id: z.string(),
  message_id: z.string().nullable(),
  thread_id: z.string().nullable(),
  subject: z.string().nullable(),
  snippet: z.string().nullable(),
  to: z.array(z.string()),
  cc: z.array(z.string()),
  date_modified: DateTime.nullable(),
});
export type Draft = z.infer<typeof Draft>;

export const MAILBOX_REASONS = ['not_connected', 'reauth_required'] as const;

export const Mailbox = z.looseObject({
  connected: z.boolean(),
  provider_id: z.string().nullable(),
  email_address: z.string().nullable(),
  reason: openEnum(MAILBOX_REASONS).nullable(),
});
export type Mailbox = z.infer<typeof Mailbox>;

/** A sent message: what reply and send answer (the API documents leave it open; see docs/README.md). */
export const SentMessage = z.looseObject({ message_id: z.string(), thread_id: z.string() });
export type SentMessage = z.infer<typeof SentMessage>;

// Requests

const Address = z.email({ message: 'must be an email address' });
const AddressList = z.array(Address);
/** A draft's or a new message's subject: held to the name limit (docs/errors.md#lengths); it may be empty. */
const Subject = boundedString(MAX_NAME_LENGTH);

export const SearchThreadsQuery = PaginationQuery.extend({ q: z.string().default('') });
export type SearchThreadsQuery = z.infer<typeof SearchThreadsQuery>;

export const GetThreadQuery = z.strictObject({ include: z.literal('messages').optional() });

export const CreateDraftRequest = z.strictObject({
  body: z.string(),
  to: AddressList.optional(),
  cc: AddressList.optional(),
  bcc: AddressList.optional(),
  subject: Subject.optional(),
  is_html: z.boolean().default(true),
});
export type CreateDraftRequest = z.infer<typeof CreateDraftRequest>;

export const CreateNewDraftRequest = z.strictObject({
  to: AddressList.min(1, { message: 'at least one recipient is required' }),
  subject: Subject,
  body: z.string(),
  cc: AddressList.optional(),
  bcc: AddressList.optional(),
  is_html: z.boolean().default(true),
});
export type CreateNewDraftRequest = z.infer<typeof CreateNewDraftRequest>;

export { REPLY_MODES };

/** Recipients of a reply come from the thread: a request naming to, cc or bcc is rejected, not ignored. */
export const ReplyRequest = z
  .looseObject({
    body: z.string(),
    is_html: z.boolean().default(true),
    mode: z.enum(REPLY_MODES).default('reply'),
  })
  .superRefine((reply, ctx) => {
    for (const key of Object.keys(reply)) {
      if (key === 'to' || key === 'cc' || key === 'bcc') {
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: 'recipients cannot be set on a reply; use mode reply or reply_all',
        });
      } else if (!['body', 'is_html', 'mode'].includes(key)) {
        ctx.addIssue({ code: 'custom', path: [key], message: 'unknown field' });
      }
    }
  });
export type ReplyRequest = z.infer<typeof ReplyRequest>;

/** A new message: the fields of a new draft, optionally sent on an existing thread. */
export const SendEmailRequest = CreateNewDraftRequest.extend({ thread_id: HexId.optional() });
export type SendEmailRequest = z.infer<typeof SendEmailRequest>;

export const ReadStateRequest = z.strictObject({ read: z.boolean() });
export type ReadStateRequest = z.infer<typeof ReadStateRequest>;

export const LabelsRequest = z
  .strictObject({
    add: z.array(NonEmptyString).optional(),
    remove: z.array(NonEmptyString).optional(),
  })
  .refine((change) => (change.add?.length ?? 0) + (change.remove?.length ?? 0) > 0, {
    message: 'send at least one label id in add or remove',
  });
export type LabelsRequest = z.infer<typeof LabelsRequest>;

/**
 * `until` must be in the future on the server's clock, so the server checks it: a client whose clock
 * differs from the server's would otherwise refuse requests the server takes, or send ones it refuses.
 */
export const SnoozeRequest = z.strictObject({ until: DateTime });
export type SnoozeRequest = z.infer<typeof SnoozeRequest>;
