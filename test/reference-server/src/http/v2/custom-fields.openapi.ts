// What the OpenAPI document says about the routes of `custom-fields.ts`: one entry per route, beside it.
import {
  CreateCustomFieldRequest,
  CustomField,
  PaginationQuery,
  UpdateCustomFieldRequest,
} from '@threadwork/shared/schemas';
import { GATED, id, type RouteEntry } from '../openapi/entry.ts';

export const CUSTOM_FIELDS_ROUTES: readonly RouteEntry[] = [
  {
    method: 'GET',
    path: '/v2/boards/{id}/custom-fields',
    operationId: 'listCustomFields',
    tag: 'Custom fields',
    summary: 'List a board’s custom fields',
    auth: 'v2',
    scopes: ['customfields.read'],
    pathParams: id.board,
    query: PaginationQuery,
    page: CustomField,
    errors: GATED,
  },
  {
    method: 'POST',
    path: '/v2/boards/{id}/custom-fields',
    operationId: 'createCustomField',
    tag: 'Custom fields',
    summary: 'Create a custom field on a board',
    description:
      '`options` (each created with a fresh id) are valid only for option types (select, status, tag, ' +
      'multiselect); `display_on_card` only for status and tag fields: otherwise a 400 naming the field.',
    auth: 'v2',
    scopes: ['customfields.write'],
    pathParams: id.board,
    body: CreateCustomFieldRequest,
    data: CustomField,
    errors: GATED,
  },
  {
    method: 'PATCH',
    path: '/v2/custom-fields/{id}',
    operationId: 'updateCustomField',
    tag: 'Custom fields',
    summary: 'Update a custom field',
    description:
      '`options` replaces the set: an item with `id` keeps (and relabels) that option, one without adds an ' +
      'option; values of removed options are taken off every task (each such task gets a task.updated event). ' +
      'An AI-managed field (`ai: true`) is read-only: a 400.',
    auth: 'v2',
    scopes: ['customfields.write'],
    pathParams: id.field,
    body: UpdateCustomFieldRequest,
    data: CustomField,
    errors: GATED,
  },
];
