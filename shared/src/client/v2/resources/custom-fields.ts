import type { z } from 'zod';
import { envelope, PaginationQuery } from '../../../schemas/common.ts';
import {
  CreateCustomFieldRequest,
  CustomField,
  UpdateCustomFieldRequest,
} from '../../../schemas/v2/custom-fields.ts';
import type { PagePromise } from '../../pagination.ts';
import { type ListParams, parseQuery, parseRequest, pathId, type RequestOptions } from '../../request.ts';
import { Resource } from './resource.ts';

const CustomFieldEnvelope = envelope(CustomField);
const CustomFieldListEnvelope = envelope(CustomField.array());

export class CustomFieldsResource extends Resource {
  /** GET /boards/{id}/custom-fields */
  list(
    boardId: string,
    params?: ListParams<PaginationQuery>,
    options?: RequestOptions,
  ): PagePromise<CustomField> {
    return this.transport.list(
      () => ({
        path: `/boards/${pathId(boardId, 'board id')}/custom-fields`,
        query: parseQuery(PaginationQuery, params),
      }),
      CustomFieldListEnvelope,
      options,
    );
  }

  /** POST /boards/{id}/custom-fields */
  async create(
    boardId: string,
    body: z.input<typeof CreateCustomFieldRequest>,
    options?: RequestOptions,
  ): Promise<CustomField> {
    const path = `/boards/${pathId(boardId, 'board id')}/custom-fields`;
    const payload = parseRequest(CreateCustomFieldRequest, body);
    return this.transport.request('POST', path, CustomFieldEnvelope, payload, options);
  }

  /** PATCH /custom-fields/{id} */
  async update(
    id: string,
    body: z.input<typeof UpdateCustomFieldRequest>,
    options?: RequestOptions,
  ): Promise<CustomField> {
    const path = `/custom-fields/${pathId(id, 'custom field id')}`;
    const payload = parseRequest(UpdateCustomFieldRequest, body);
    return this.transport.request('PATCH', path, CustomFieldEnvelope, payload, options);
  }
}
