import type { V2Transport } from '../transport.ts';

/** A group of v2 operations sharing the client's transport. */
export abstract class Resource {
  protected readonly transport: V2Transport;

  constructor(transport: V2Transport) {
    this.transport = transport;
  }
}
