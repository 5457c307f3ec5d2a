import { envelope } from '../../../schemas/common.ts';
import { Me } from '../../../schemas/v2/me.ts';
import type { RequestOptions } from '../../request.ts';
import { Resource } from './resource.ts';

const MeEnvelope = envelope(Me);

export class MeResource extends Resource {
  /** GET /me: who the credentials belong to; needs no scope, so it also confirms that they work. */
  get(options?: RequestOptions): Promise<Me> {
    return this.transport.request('GET', '/me', MeEnvelope, undefined, options);
  }
}
