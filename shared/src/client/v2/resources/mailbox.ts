import { envelope } from '../../../schemas/common.ts';
import { Mailbox } from '../../../schemas/v2/email.ts';
import type { RequestOptions } from '../../request.ts';
import { Resource } from './resource.ts';

const MailboxEnvelope = envelope(Mailbox);

export class MailboxResource extends Resource {
  /** GET /mailbox: whether the key owner's mailbox is connected and usable (`reason` says why not). */
  get(options?: RequestOptions): Promise<Mailbox> {
    return this.transport.request('GET', '/mailbox', MailboxEnvelope, undefined, options);
  }
}
