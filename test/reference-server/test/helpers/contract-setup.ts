// Vitest global setup: loads the contract checker (Prism and the document's operations) once per run, in
// Vitest's main process, and serves it on loopback: each test file posts its exchanges there
// (contract.ts) instead of loading Prism itself.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';
import { createContractChecker, type Exchange } from './contract-checker.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where to POST an exchange (JSON); the answer is the list of problems found (JSON). */
    contractCheckUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const check = await createContractChecker();
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => {
      let problems: string[];
      try {
        problems = check(JSON.parse(body) as Exchange);
      } catch (error) {
        problems = [`the contract check failed: ${(error as Error).stack}`];
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(problems));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  project.provide('contractCheckUrl', `http://127.0.0.1:${port}/check`);
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
