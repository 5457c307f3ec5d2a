import nock from 'nock';
import { afterEach, beforeAll } from 'vitest';
import { operationSuite } from '../creates/suite.ts';
import { SEARCH_CASES } from './cases.ts';

beforeAll(() => {
  nock.disableNetConnect();
});

afterEach(() => {
  nock.cleanAll();
});

operationSuite(SEARCH_CASES);
