// `/deliveries`: every v2 webhook subscription and v1 hook of the user, each delivery with its event,
// status and attempts, the signature header and body it carries, and Replay. Live as attempts happen.
import type {
  ConsoleDeliveries,
  ConsoleDelivery,
  ConsoleReceiver,
  ConsoleSubscription,
} from '@threadwork/shared/schemas';
import { useState } from 'preact/hooks';
import { call, useAction, useResource } from '../api.ts';
import { Failure, Loading, Time } from './common.tsx';

export function DeliveriesPage() {
  const view = useResource<ConsoleDeliveries>('deliveries', (change) => change.topic === 'delivery');
  if (view.error && !view.data) return <Failure error={view.error} />;
  if (!view.data) return <Loading />;
  const { subscriptions } = view.data;
  return (
    <section>
      <div class="page-head">
        <h1>Deliveries</h1>
        <p class="muted">
          Webhook subscriptions (v2) and hooks (v1, as the Zapier app makes them), newest deliveries first.
        </p>
      </div>
      <TestReceiver
        receiver={view.data.receiver}
        eventTypes={view.data.event_types}
        // A subscription disabled (its key revoked, say) no longer counts: the button comes back.
        subscribed={subscriptions.some(
          (subscription) =>
            subscription.target_url === view.data?.receiver.url && subscription.status === 'active',
        )}
        onCreated={view.reload}
      />
      <Subscribe eventTypes={view.data.event_types} onCreated={view.reload} />
      {subscriptions.length === 0 && (
        <p class="muted">
          No subscriptions yet: subscribe the test receiver or your own URL above, with{' '}
          <code>POST /v2/webhooks/subscriptions</code>, or with a v1 hook (a Zap's trigger); then add or
          change a task on a board.
        </p>
      )}
      {subscriptions.map((subscription) => (
        <Subscription key={subscription.id} subscription={subscription} />
      ))}
    </section>
  );
}

const defaultEvents = (eventTypes: string[]) => eventTypes.filter((type) => type.startsWith('task.'));

/**
 * The console's own test receiver: one click subscribes it to the task events (a v2 subscription like any
 * other), and it lists what it took and whether each signature verified.
 */
function TestReceiver({
  receiver,
  eventTypes,
  subscribed,
  onCreated,
}: {
  receiver: ConsoleReceiver;
  eventTypes: string[];
  subscribed: boolean;
  onCreated(): void;
}) {
  const { busy, error, run } = useAction();
  const url = receiver.url;
  async function subscribe() {
    if (url === null) return;
    const created = await run(() =>
      call('POST', 'webhooks', { target_url: url, events: defaultEvents(eventTypes) }),
    );
    if (created) onCreated();
  }
  return (
    <section class="receiver" aria-labelledby="receiver-head">
      <h2 id="receiver-head">Test receiver</h2>
      {url === null ? (
        <p class="muted">
          This server refuses webhook targets on this machine, so the console's test receiver cannot be
          subscribed: start it with <code>--allow-insecure-webhooks</code> (<code>pnpm start</code> does), or
          subscribe a public https URL below.
        </p>
      ) : (
        <p>
          <span class="muted">
            A webhook target inside this server, at <code>{url}</code>: it verifies each delivery's signature
            and answers 204.
          </span>{' '}
          {subscribed ? (
            <span class="muted">Subscribed to task events.</span>
          ) : (
            <button
              type="button"
              data-testid="console-receiver-subscribe"
              disabled={busy}
              onClick={subscribe}
            >
              Subscribe the test receiver
            </button>
          )}
        </p>
      )}
      {error && <Failure error={error} />}
      {receiver.received.length > 0 && (
        <table class="attempts">
          <caption class="visually-hidden">Requests the test receiver took, newest first</caption>
          <ColumnHeads names={['Received', 'Event', 'Delivery', 'Signature', 'Answer']} />
          <tbody>
            {receiver.received.map((entry, index) => (
              <tr key={`${entry.received_at}-${index}`} data-testid="console-received">
                <td>
                  <Time value={entry.received_at} withTime />
                </td>
                <td>{entry.event_type ?? '—'}</td>
                <td>
                  <code>{entry.delivery_id ?? '—'}</code>
                </td>
                <td>{entry.signature}</td>
                <td>
                  {entry.status_code}
                  {entry.error && <> · {entry.error}</>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** A v2 webhook subscription, made as POST /v2/webhooks/subscriptions makes one; its signing secret shown once. */
function Subscribe({ eventTypes, onCreated }: { eventTypes: string[]; onCreated(): void }) {
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>(defaultEvents(eventTypes));
  const [secret, setSecret] = useState<string | null>(null);
  const { busy, error, run } = useAction();
  async function submit(event: Event) {
    event.preventDefault();
    const created = await run(() =>
      call<{ secret?: string }>('POST', 'webhooks', { target_url: url.trim(), events }),
    );
    if (!created) return;
    setSecret(created.secret ?? null);
    setUrl('');
    onCreated();
  }
  const toggle = (type: string) =>
    setEvents((current) => (current.includes(type) ? current.filter((t) => t !== type) : [...current, type]));
  return (
    <details class="subscribe">
      <summary>Subscribe a webhook</summary>
      <form onSubmit={submit}>
        <p>
          <label for="hook-url">Target URL</label>{' '}
          <input
            id="hook-url"
            type="url"
            required
            value={url}
            placeholder="https://example.com/hook"
            onInput={(event) => setUrl((event.target as HTMLInputElement).value)}
          />
        </p>
        <fieldset class="scope-grid">
          <legend>Events</legend>
          {eventTypes.map((type) => (
            <label>
              <input type="checkbox" checked={events.includes(type)} onChange={() => toggle(type)} /> {type}
            </label>
          ))}
        </fieldset>
        <button type="submit" disabled={busy || url.trim() === '' || events.length === 0}>
          Subscribe
        </button>
        {error && <Failure error={error} />}
        {secret && (
          <p role="status">
            <label for="hook-secret">
              Signing secret (shown this once; receivers verify deliveries with it)
            </label>
            <input id="hook-secret" readOnly value={secret} />
          </p>
        )}
      </form>
    </details>
  );
}

function Subscription({ subscription }: { subscription: ConsoleSubscription }) {
  const headingId = `sub-${subscription.id}`;
  const { error, run } = useAction();
  const test = () => run(() => call('POST', `webhooks/${encodeURIComponent(subscription.id)}/test`));
  return (
    <section class="subscription-block" aria-labelledby={headingId}>
      <h2 id={headingId}>
        <span class="chip">{subscription.kind === 'v2' ? 'v2 webhook' : 'v1 hook'}</span>{' '}
        {subscription.target_url}
      </h2>
      <p class="muted">
        {subscription.kind === 'v2' ? 'Events' : 'Action'}: {subscription.events.join(', ')}
        {subscription.entity_id && <> on {subscription.entity_id}</>} · {subscription.status}
        {subscription.disabled_reason && <> ({reasonText(subscription.disabled_reason)})</>} ·{' '}
        <code>{subscription.id}</code>
        {subscription.kind === 'v2' && (
          <>
            {' '}
            <button type="button" onClick={test}>
              Send a test event
            </button>
          </>
        )}
      </p>
      {error && <Failure error={error} />}
      {subscription.deliveries.length === 0 ? (
        <p class="muted">
          No deliveries yet: add or change a task on a <a href="/">board</a>
          {subscription.kind === 'v2' && ', or send a test event'}.
        </p>
      ) : (
        <ol class="deliveries">
          {subscription.deliveries.map((delivery) => (
            <Delivery key={delivery.id} delivery={delivery} />
          ))}
        </ol>
      )}
    </section>
  );
}

function Delivery({ delivery }: { delivery: ConsoleDelivery }) {
  const { busy, error, run } = useAction();
  const [replayed, setReplayed] = useState<string | null>(null);
  async function replay() {
    const made = await run(() =>
      call<{ id: string }>('POST', `deliveries/${encodeURIComponent(delivery.id)}/replay`),
    );
    if (made) setReplayed(made.id);
  }
  return (
    <li
      class="delivery"
      data-testid="console-delivery"
      data-delivery-id={delivery.id}
      data-status={delivery.status}
    >
      <div class="delivery-head">
        <code>{delivery.event_type}</code>
        <span class={`status status-${delivery.status}`}>{delivery.status}</span>
        <span class="muted">
          {delivery.attempt_count} attempt{delivery.attempt_count === 1 ? '' : 's'} · queued{' '}
          <Time value={delivery.created_at} withTime />
          {delivery.next_attempt_at && (
            <>
              {' '}
              · next attempt <Time value={delivery.next_attempt_at} withTime />
            </>
          )}
        </span>
        <button type="button" data-testid="console-replay" disabled={busy} onClick={replay}>
          Replay<span class="visually-hidden"> delivery {delivery.id}</span>
        </button>
      </div>
      {replayed && <p role="status">Replayed as {replayed}.</p>}
      {error && <Failure error={error} />}
      <p class="muted small">
        delivery <code>{delivery.id}</code> · event <code>{delivery.event_id}</code>
      </p>
      {delivery.attempts.length > 0 && (
        <table class="attempts">
          <caption class="visually-hidden">Attempts of {delivery.id}</caption>
          <ColumnHeads names={['#', 'Time', 'Outcome', 'Answer', 'Duration', 'Error']} />
          <tbody>
            {delivery.attempts.map((attempt, index) => (
              <tr key={attempt.attempted_at + index}>
                <td>{index + 1}</td>
                <td>
                  <Time value={attempt.attempted_at} withTime />
                </td>
                <td>{attempt.outcome}</td>
                <td>{attempt.status_code ?? '—'}</td>
                <td>{Math.round(attempt.duration_ms)} ms</td>
                <td>{attempt.error ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <details>
        <summary>Headers and body</summary>
        <pre class="code">
          {`x-service-event-id: ${delivery.event_id}\nx-service-delivery-id: ${delivery.id}\n`}
          {delivery.signature
            ? `x-service-signature: ${delivery.signature}\n`
            : 'x-service-signature: (v1 hooks are unsigned, or not sent yet)\n'}
        </pre>
        <pre class="code">{prettyJson(delivery.body)}</pre>
      </details>
    </li>
  );
}

/** Why a subscription was disabled, in words (an unknown reason as it is). */
function reasonText(reason: string): string {
  const known: Record<string, string> = {
    manual: 'paused by hand',
    gone: 'the receiver answered 410',
    failing: 'five days of failures',
    key_revoked: 'its API key was revoked',
  };
  return known[reason] ?? reason;
}

function prettyJson(body: string | null): string {
  if (body === null) return '(no body stored)';
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/** A table's column headings. */
function ColumnHeads({ names }: { names: string[] }) {
  return (
    <thead>
      <tr>
        {names.map((name) => (
          <th key={name} scope="col">
            {name}
          </th>
        ))}
      </tr>
    </thead>
  );
}
