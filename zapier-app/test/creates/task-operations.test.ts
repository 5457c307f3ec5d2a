/**
 * The wire shapes of archive_task, delete_task, Create Task with the board's custom fields, and Find Board
 * Member (the table in task-cases.ts): the exact requests, the output, and every service error as a message
 * that says what to do (the shared operation suite).
 */
import nock from 'nock';
import { afterEach, beforeAll } from 'vitest';
import { operationSuite } from './suite.ts';
import { TASK_CASES } from './task-cases.ts';

beforeAll(() => {
  nock.disableNetConnect();
});

afterEach(() => {
  nock.cleanAll();
});

operationSuite(TASK_CASES);
