// A board's custom fields.
import { PaginationQuery } from '../../schemas/common.ts';
import {
  CreateCustomFieldRequest,
  CustomField,
  UpdateCustomFieldRequest,
} from '../../schemas/v2/custom-fields.ts';
import { ID, operation } from '../operation.ts';

export const customFields = {
  list: operation({
    method: 'GET',
    path: '/v2/boards/{id}/custom-fields',
    operationId: 'listCustomFields',
    tag: 'Custom fields',
    summary: 'List a board’s custom fields',
    scopes: ['customfields.read'],
    pathParams: ID.board,
    query: PaginationQuery,
    page: CustomField,
    gated: true,
  }),
  create: operation({
    method: 'POST',
    path: '/v2/boards/{id}/custom-fields',
    operationId: 'createCustomField',
    tag: 'Custom fields',
    summary: 'Create a custom field on a board',
    description:
      '`options` (each created with a fresh id) are valid only for option types (select, status, tag, ' +
      'multiselect); `display_on_card` only for status and tag fields: otherwise a 400 naming the field.',
    scopes: ['customfields.write'],
    pathParams: ID.board,
    body: CreateCustomFieldRequest,
    data: CustomField,
    gated: true,
  }),
  update: operation({
    method: 'PATCH',
    path: '/v2/custom-fields/{id}',
    operationId: 'updateCustomField',
    tag: 'Custom fields',
    summary: 'Update a custom field',
    description:
      '`options` replaces the set: an item with `id` keeps (and relabels) that option, one without adds an ' +
      'option; values of removed options are taken off every task (each such task gets a task.updated event). ' +
      'An AI-managed field (`ai: true`) is read-only: a 400.',
    scopes: ['customfields.write'],
    pathParams: ID.field,
    body: UpdateCustomFieldRequest,
    data: CustomField,
    gated: true,
  }),
};
