import { envelope } from '../../../schemas/common.ts';
import { EmailLabels } from '../../../schemas/v2/email.ts';
import type { RequestOptions } from '../../request.ts';
import { Resource } from './resource.ts';

const EmailLabelsEnvelope = envelope(EmailLabels);

export class EmailLabelsResource extends Resource {
  /** GET /email-labels: system and user labels of the mailbox. */
  list(options?: RequestOptions): Promise<EmailLabels> {
    return this.transport.request('GET', '/email-labels', EmailLabelsEnvelope, undefined, options);
  }
}
