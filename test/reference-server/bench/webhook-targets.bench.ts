/**
 * What checking a webhook's target costs each delivery attempt (parse the URL, resolve the name, check
 * every address), beside the cheapest attempt there is, measured in the same run: a keep-alive POST of a
 * typical event body to a receiver on loopback. The resolver is in memory, so the figure is the check's
 * own cost, not DNS's. Budget: under 10 % of that POST.
 *
 * Run: node test/reference-server/bench/webhook-targets.bench.ts
 */
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { report, timeRuns } from '../../../scripts/bench-kit.ts';
import { resolveTarget, type WebhookTargetPolicy } from '../src/domain/webhook-targets.ts';

const CHECKS = 1_000;
const POSTS = 100;
const ITERATIONS = 100;

const policy: WebhookTargetPolicy = {
  allowInsecureWebhooks: false,
  listeningPorts: new Set([8787]),
  resolveHost: async () => ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
};
const literal = 'https://93.184.215.14/hooks/threadwork';
const named = 'https://hooks.example.com/hooks/threadwork?token=abc';
const body = JSON.stringify({
  id: 'evt_0123456789abcdef',
  type: 'task.created',
  created_at: '2026-01-05T10:00:00.000Z',
  data: { task: { id: 'tsk_1', title: 'Call Bob about the renewal quote', notes: 'x'.repeat(400) } },
});

const receiver = createServer((incoming, answer) => {
  incoming.resume();
  incoming.on('end', () => answer.end());
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const { port } = receiver.address() as AddressInfo;
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
const post = () =>
  new Promise<void>((resolve, reject) => {
    const sent = request(
      {
        host: '127.0.0.1',
        port,
        path: '/hook',
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json' },
      },
      (answer) => {
        answer.resume();
        answer.on('end', resolve);
      },
    );
    sent.on('error', reject);
    sent.end(body);
  });

const posting = await timeRuns(
  async () => {
    for (let i = 0; i < POSTS; i++) await post();
  },
  { iterations: ITERATIONS },
);
const checkNamed = await timeRuns(
  async () => {
    for (let i = 0; i < CHECKS; i++) await resolveTarget(named, policy);
  },
  { iterations: ITERATIONS },
);
const checkLiteral = await timeRuns(
  async () => {
    for (let i = 0; i < CHECKS; i++) await resolveTarget(literal, policy);
  },
  { iterations: ITERATIONS },
);
agent.destroy();
receiver.close();

const postUs = (posting.median / POSTS) * 1000;
const namedUs = (checkNamed.median / CHECKS) * 1000;
const literalUs = (checkLiteral.median / CHECKS) * 1000;
report({
  name: 'target check per attempt, a name with two addresses (median)',
  value: namedUs,
  unit: 'µs',
  budget: { limit: postUs / 10, better: 'lower' },
  context: {
    'loopback POST (baseline), µs': postUs,
    'ratio to the POST': namedUs / postUs,
    'address literal, µs': literalUs,
    'literal ratio to the POST': literalUs / postUs,
  },
});
