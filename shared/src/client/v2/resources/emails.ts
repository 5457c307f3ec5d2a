import type { z } from 'zod';
import { envelope } from '../../../schemas/common.ts';
import { SendEmailRequest, SentMessage } from '../../../schemas/v2/email.ts';
import { parseRequest, type RequestOptions } from '../../request.ts';
import { Resource } from './resource.ts';

const SentMessageEnvelope = envelope(SentMessage);

export class EmailsResource extends Resource {
  /** POST /emails: a new message, or one in an existing thread with `thread_id` (scope email.send, opt-in). */
  async send(body: z.input<typeof SendEmailRequest>, options?: RequestOptions): Promise<SentMessage> {
    const payload = parseRequest(SendEmailRequest, body);
    return this.transport.request('POST', '/emails', SentMessageEnvelope, payload, options);
  }
}
