// `/deliveries`: the user's v2 webhook subscriptions and v1 hooks, each with its deliveries counted by
// status and what may be done to it (pause and resume, a test event, rotate the signing secret, retry
// every failed event, delete); then their deliveries, newest first, one page at a time, filtered by
// status, event type and subscription (all kept in the URL). A delivery is one row; opening it shows
// its attempts with the receiver's answers, the attempts still ahead, and the headers and body it
// carries. Live as attempts happen.
import type {
  ConsoleDeliveries,
  ConsoleDeliveryDetail,
  ConsoleDeliveryRow,
  ConsoleReceiver,
  ConsoleSubscription,
  RotatedSecret,
} from '@threadwork/shared/schemas';
import { useState } from 'preact/hooks';
import { call, useAction, useResource } from '../api.ts';
import { navigate, useLocation } from '../router.ts';
import { ConfirmButton, Failure, Loading, Secret, Time, useTitle } from './common.tsx';

const FILTERS = ['status', 'event_type', 'subscription_id'] as const;
const STATUSES = ['pending', 'delivered', 'failed', 'suppressed'] as const;

/** What each status means, as the page says it. */
const STATUS_HELP: Record<string, string> = {
  pending: 'waiting for its next attempt',
  delivered: 'the receiver answered 2xx',
  failed: 'its attempts ran out, or its subscription went away',
  suppressed:
    'not sent: another delivery of its event to the same subscription succeeded, or the subscription was paused',
};

/** Why a subscription stopped, in words. */
export function disabledReason(reason: string | null): string {
  switch (reason) {
    case 'manual':
      return 'paused by hand';
    case 'gone':
      return 'the receiver answered 410 Gone';
    case 'failing':
      return 'every attempt failed for five days';
    case 'key_revoked':
      return 'the API key that made it was revoked';
    case null:
      return 'disabled';
    default:
      return reason;
  }
}

export function DeliveriesPage() {
  const { query } = useLocation();
  const apiQuery = new URLSearchParams();
  for (const name of [...FILTERS, 'before', 'after']) {
    const value = query.get(name);
    if (value) apiQuery.set(name, value);
  }
  const search = apiQuery.toString();
  const view = useResource<ConsoleDeliveries>(
    `deliveries${search ? `?${search}` : ''}`,
    // Deliveries queued and attempted, subscriptions made or changed, keys revoked (their subscriptions stop).
    (change) => change.topic === 'delivery' || change.topic === 'subscription' || change.topic === 'keys',
  );
  useTitle('Deliveries');
  if (view.error && !view.data) return <Failure error={view.error} />;
  if (!view.data) return <Loading />;
  const { subscriptions, deliveries, filter } = view.data;
  const filtered = FILTERS.some((name) => filter[name] !== null);
  /** This page's URL with some of its query changed (a filter change starts again at the newest). */
  const withQuery = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(search);
    if (!('before' in changes) && !('after' in changes)) {
      next.delete('before');
      next.delete('after');
    }
    for (const [name, value] of Object.entries(changes)) {
      if (value === null || value === '') next.delete(name);
      else next.set(name, value);
    }
    const text = next.toString();
    return `/deliveries${text ? `?${text}` : ''}`;
  };
  const byId = new Map(subscriptions.map((subscription) => [subscription.id, subscription]));
  return (
    <section class="deliveries-page">
      <div class="page-head">
        <h1>Deliveries</h1>
        <p class="muted">
          Webhook subscriptions (v2) and hooks (v1, as the Zapier app makes them), and their deliveries,
          newest first.
        </p>
        {view.error && <Failure error={view.error} />}
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
      <h2 id="subscriptions">Subscriptions</h2>
      {subscriptions.length === 0 ? (
        <p class="muted">
          No subscriptions yet: subscribe the test receiver or your own URL above, with{' '}
          <code>POST /v2/webhooks/subscriptions</code>, or with a v1 hook (a Zap's trigger); then add or
          change a task on a board.
        </p>
      ) : (
        <ul class="subscriptions" aria-labelledby="subscriptions">
          {subscriptions.map((subscription) => (
            <Subscription
              key={subscription.id}
              subscription={subscription}
              showHref={withQuery({ subscription_id: subscription.id })}
              onChanged={view.reload}
            />
          ))}
        </ul>
      )}
      <h2 id="delivery-list">{filtered ? 'Deliveries (filtered)' : 'Deliveries'}</h2>
      <form class="filters" aria-label="Filter deliveries" onSubmit={(event) => event.preventDefault()}>
        <Filter
          id="filter-status"
          label="Status"
          value={filter.status}
          options={STATUSES.map((status) => ({ value: status, label: status }))}
          onChange={(value) => navigate(withQuery({ status: value }))}
        />
        <Filter
          id="filter-event"
          label="Event"
          value={filter.event_type}
          options={view.data.delivery_types.map((type) => ({ value: type, label: type }))}
          onChange={(value) => navigate(withQuery({ event_type: value }))}
        />
        <Filter
          id="filter-subscription"
          label="Subscription"
          value={filter.subscription_id}
          options={subscriptions.map((subscription) => ({
            value: subscription.id,
            label: `${subscription.target_url} (${subscription.id})`,
          }))}
          onChange={(value) => navigate(withQuery({ subscription_id: value }))}
        />
        {filtered && (
          <a href="/deliveries" class="button">
            Clear filters
          </a>
        )}
      </form>
      {deliveries.length === 0 ? (
        <p class="muted">
          {filtered ? 'No delivery matches these filters.' : 'No deliveries yet: add or change a task on a '}
          {!filtered && <a href="/">board</a>}
          {!filtered && ', or send a test event.'}
        </p>
      ) : (
        <ol class="deliveries" aria-labelledby="delivery-list">
          {deliveries.map((delivery) => (
            <Delivery
              key={delivery.id}
              delivery={delivery}
              subscription={byId.get(delivery.subscription_id)}
              onReplayed={view.reload}
            />
          ))}
        </ol>
      )}
      {(view.data.newer || view.data.older) && (
        <nav class="pager" aria-label="Pages of deliveries">
          {view.data.newer && <a href={withQuery({ after: view.data.newer, before: null })}>← Newer</a>}
          {view.data.newer && <a href={withQuery({ before: null, after: null })}>Newest</a>}
          {view.data.older && <a href={withQuery({ before: view.data.older, after: null })}>Older →</a>}
        </nav>
      )}
    </section>
  );
}

function Filter(props: {
  id: string;
  label: string;
  value: string | null;
  options: { value: string; label: string }[];
  onChange(value: string | null): void;
}) {
  return (
    <span class="filter">
      <label for={props.id}>{props.label}</label>
      <select
        id={props.id}
        value={props.value ?? ''}
        onChange={(event) => props.onChange((event.target as HTMLSelectElement).value || null)}
      >
        <option value="">Any</option>
        {props.options.map((option) => (
          <option value={option.value}>{option.label}</option>
        ))}
      </select>
    </span>
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
            A webhook target inside this server, at <code class="url">{url}</code>: it verifies each
            delivery's signature and answers 204.
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
        <details class="received">
          <summary>What it took ({receiver.received.length}, newest first)</summary>
          <table class="attempts stack">
            <caption class="visually-hidden">Requests the test receiver took, newest first</caption>
            <ColumnHeads names={['Received', 'Event', 'Delivery', 'Signature', 'Answer']} />
            <tbody>
              {receiver.received.map((entry, index) => (
                <tr key={`${entry.received_at}-${index}`} data-testid="console-received">
                  <td data-label="Received">
                    <Time value={entry.received_at} withTime />
                  </td>
                  <td data-label="Event">{entry.event_type ?? '—'}</td>
                  <td data-label="Delivery">
                    <code>{entry.delivery_id ?? '—'}</code>
                  </td>
                  <td data-label="Signature">{entry.signature}</td>
                  <td data-label="Answer">
                    {entry.status_code}
                    {entry.error && <> · {entry.error}</>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      )}
    </section>
  );
}

/** A v2 webhook subscription, made as POST /v2/webhooks/subscriptions makes one; its signing secret shown once. */
function Subscribe({ eventTypes, onCreated }: { eventTypes: string[]; onCreated(): void }) {
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>(defaultEvents(eventTypes));
  const [made, setMade] = useState<{ secret: string; url: string } | null>(null);
  const { busy, error, run } = useAction();
  async function submit(event: Event) {
    event.preventDefault();
    const target = url.trim();
    const created = await run(() =>
      call<{ secret?: string; target_url: string }>('POST', 'webhooks', { target_url: target, events }),
    );
    if (!created) return;
    setMade(created.secret ? { secret: created.secret, url: created.target_url } : null);
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
            aria-invalid={error ? 'true' : undefined}
            aria-describedby={error ? 'hook-url-error' : undefined}
            onInput={(event) => setUrl((event.target as HTMLInputElement).value)}
          />
        </p>
        {error && (
          <p class="error" id="hook-url-error" role="alert">
            {error.message}
          </p>
        )}
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
        {made && (
          <div class="created" role="status">
            <Secret
              id="hook-secret"
              label={
                <>
                  Signing secret for <code class="url">{made.url}</code> (shown this once; its receiver
                  verifies deliveries with it)
                </>
              }
              value={made.secret}
            />
          </div>
        )}
      </form>
    </details>
  );
}

function Subscription({
  subscription,
  showHref,
  onChanged,
}: {
  subscription: ConsoleSubscription;
  showHref: string;
  onChanged(): void;
}) {
  const headingId = `sub-${subscription.id}`;
  const { busy, error, run } = useAction();
  const [status, setStatus] = useState('');
  const [rotated, setRotated] = useState<RotatedSecret | null>(null);
  const base = `${subscription.kind === 'v2' ? 'webhooks' : 'hooks'}/${encodeURIComponent(subscription.id)}`;
  async function act<T>(method: string, path: string, body: object | undefined, done: (answer: T) => string) {
    const answer = await run(() => call<T>(method, path, body));
    if (answer === undefined) return;
    setStatus(done(answer));
    onChanged();
  }
  const { counts } = subscription;
  const active = subscription.status === 'active';
  return (
    <li
      class={`subscription-block${subscription.failing_since ? ' failing' : ''}`}
      data-subscription-id={subscription.id}
      aria-labelledby={headingId}
    >
      <h3 id={headingId}>
        <span class="chip">{subscription.kind === 'v2' ? 'v2 webhook' : 'v1 hook'}</span>{' '}
        <span class="url">{subscription.target_url}</span>
      </h3>
      <p class="muted small">
        {subscription.kind === 'v2' ? 'Events' : 'Action'}: {subscription.events.join(', ')}
        {subscription.entity_id && <> on {subscription.entity_id}</>} · <code>{subscription.id}</code>
      </p>
      <p class="sub-state">
        <span class={`status status-${active ? 'active' : 'disabled'}`}>
          {active ? 'active' : `paused: ${disabledReason(subscription.disabled_reason)}`}
        </span>
        {subscription.failing_since && (
          <span class="status status-failed">
            failing since <Time value={subscription.failing_since} withTime />
          </span>
        )}
        {subscription.previous_secret_until && (
          <span class="muted small" data-rotated="">
            secret rotated: the previous one still signs until{' '}
            <Time value={subscription.previous_secret_until} withTime />
          </span>
        )}
        <a href={showHref}>
          {counts.failed} failed · {counts.pending} pending · {counts.delivered} delivered
          {counts.suppressed > 0 && <> · {counts.suppressed} suppressed</>}
          <span class="visually-hidden"> for {subscription.target_url}: show its deliveries</span>
        </a>
      </p>
      <p class="buttons">
        {subscription.kind === 'v2' && (
          <button
            type="button"
            disabled={busy}
            onClick={() =>
              act('PATCH', base, { status: active ? 'disabled' : 'active' }, () =>
                active ? 'Paused: nothing is sent to it until it is resumed.' : 'Resumed.',
              )
            }
          >
            {active ? 'Pause' : 'Resume'}
            <span class="visually-hidden"> {subscription.target_url}</span>
          </button>
        )}
        <button
          type="button"
          disabled={busy || counts.failed === 0}
          onClick={() =>
            act<{ queued: number }>('POST', `${base}/retry-failed`, undefined, (answer) =>
              answer.queued === 0
                ? 'Nothing to retry: every failed event was delivered since, or is being retried.'
                : `Queued ${answer.queued} failed event${answer.queued === 1 ? '' : 's'} again.`,
            )
          }
        >
          Retry all failed<span class="visually-hidden"> for {subscription.target_url}</span>
        </button>
        {subscription.kind === 'v2' && (
          <>
            <button
              type="button"
              disabled={busy}
              onClick={() => act('POST', `${base}/test`, undefined, () => 'A test event is on its way.')}
            >
              Send a test event<span class="visually-hidden"> to {subscription.target_url}</span>
            </button>
            <ConfirmButton
              label="Rotate secret"
              confirmLabel="Confirm rotate"
              what={`signing secret of ${subscription.target_url}`}
              busy={busy}
              onConfirm={async () => {
                const answer = await run(() => call<RotatedSecret>('POST', `${base}/rotate-secret`));
                if (answer) setRotated(answer);
              }}
            />
          </>
        )}
        <ConfirmButton
          label="Delete"
          confirmLabel="Confirm delete"
          what={`subscription ${subscription.target_url}`}
          busy={busy}
          onConfirm={() => act('DELETE', base, undefined, () => 'Deleted.')}
        />
      </p>
      {rotated && (
        <div class="created" role="status">
          <Secret
            id={`rotated-${subscription.id}`}
            label={
              <>
                New signing secret for <code class="url">{subscription.target_url}</code> (shown this once)
              </>
            }
            value={rotated.secret}
          />
          <p class="muted small">
            Deliveries carry a signature by each secret until the previous one expires.{' '}
            <button type="button" onClick={() => setRotated(null)}>
              Done
            </button>
          </p>
        </div>
      )}
      {status && (
        <p class="muted small" role="status">
          {status}
        </p>
      )}
      {error && <Failure error={error} />}
    </li>
  );
}

function Delivery({
  delivery,
  subscription,
  onReplayed,
}: {
  delivery: ConsoleDeliveryRow;
  subscription: ConsoleSubscription | undefined;
  onReplayed(): void;
}) {
  const { busy, error, run } = useAction();
  const [open, setOpen] = useState(false);
  const [replayed, setReplayed] = useState<string | null>(null);
  async function replay() {
    const made = await run(() =>
      call<{ id: string }>('POST', `deliveries/${encodeURIComponent(delivery.id)}/replay`),
    );
    if (!made) return;
    setReplayed(made.id);
    onReplayed();
  }
  const detailId = `detail-${delivery.id}`;
  return (
    <li
      class={`delivery${open ? ' open' : ''}`}
      data-testid="console-delivery"
      data-delivery-id={delivery.id}
      data-status={delivery.status}
    >
      <div class="delivery-head">
        <button
          type="button"
          class="disclosure"
          aria-expanded={open ? 'true' : 'false'}
          aria-controls={detailId}
          onClick={() => setOpen(!open)}
        >
          <span aria-hidden="true">{open ? '▾' : '▸'}</span> <code>{delivery.event_type}</code>
          <span class="visually-hidden"> delivery {delivery.id}: details</span>
        </button>
        <span class={`status status-${delivery.status}`} title={STATUS_HELP[delivery.status]}>
          {delivery.status}
        </span>
        <span class="muted small">
          {delivery.attempt_count} attempt{delivery.attempt_count === 1 ? '' : 's'}
          {delivery.last_status_code !== null && <> · answered {delivery.last_status_code}</>}
          {' · '}
          <Time value={delivery.created_at} withTime />
          {delivery.next_attempt_at && (
            <>
              {' '}
              · next <Time value={delivery.next_attempt_at} withTime />
            </>
          )}
        </span>
        <span class="muted small url">{subscription?.target_url ?? delivery.subscription_id}</span>
        <button type="button" data-testid="console-replay" disabled={busy} onClick={replay}>
          Replay<span class="visually-hidden"> delivery {delivery.id}</span>
        </button>
      </div>
      {replayed && <p role="status">Replayed as {replayed}.</p>}
      {error && <Failure error={error} />}
      <div id={detailId} hidden={!open}>
        {open && <DeliveryDetail id={delivery.id} />}
      </div>
    </li>
  );
}

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

/** "in 5 minutes", "in 10 hours": how far `at` is from now. */
function fromNow(at: string): string {
  const seconds = (Date.parse(at) - Date.now()) / 1000;
  const units: [Intl.RelativeTimeFormatUnit, number][] = [
    ['day', 86400],
    ['hour', 3600],
    ['minute', 60],
  ];
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size) return relative.format(Math.round(seconds / size), unit);
  }
  return relative.format(Math.round(seconds), 'second');
}

/** A delivery opened: read on demand, and again as it changes. */
function DeliveryDetail({ id }: { id: string }) {
  const view = useResource<ConsoleDeliveryDetail>(
    `deliveries/${encodeURIComponent(id)}`,
    (change) => (change.topic === 'delivery' && change.delivery_id === id) || change.topic === 'subscription',
  );
  if (view.error && !view.data) return <Failure error={view.error} />;
  if (!view.data) return <Loading />;
  const delivery = view.data;
  return (
    <div class="delivery-detail">
      <p class="muted small">
        delivery <code>{delivery.id}</code> · event <code>{delivery.event_id}</code> · to{' '}
        <span class="url">{delivery.target_url}</span> · {STATUS_HELP[delivery.status] ?? delivery.status}
      </p>
      {delivery.attempts.length === 0 ? (
        <p class="muted">No attempt yet.</p>
      ) : (
        <ol class="attempt-list">
          {delivery.attempts.map((attempt, index) => (
            <li key={attempt.attempted_at + index} class="attempt">
              <p>
                <strong>Attempt {index + 1}</strong> · <Time value={attempt.attempted_at} withTime /> ·{' '}
                {attempt.outcome} ·{' '}
                {attempt.status_code === null ? 'no answer' : `answered ${attempt.status_code}`} ·{' '}
                {Math.round(attempt.duration_ms)} ms
                {attempt.error && <> · {attempt.error}</>}
              </p>
              {attempt.response_body == null && attempt.response_content_type == null ? (
                <p class="muted small">No answer recorded.</p>
              ) : (
                <details class="answer">
                  <summary>
                    The receiver's answer
                    {attempt.response_content_type && <> ({attempt.response_content_type})</>}
                  </summary>
                  <pre class="code">{attempt.response_body || '(empty body)'}</pre>
                </details>
              )}
            </li>
          ))}
        </ol>
      )}
      {delivery.schedule.length > 0 && (
        <div class="schedule">
          <p>Still ahead, should each attempt fail (each time ±{Math.round(delivery.jitter * 100)} %):</p>
          <ul class="schedule-list">
            {delivery.schedule.map((attempt) => (
              <li key={attempt.number}>
                attempt {attempt.number}: <Time value={attempt.at} withTime />{' '}
                <span class="muted">({fromNow(attempt.at)})</span>
              </li>
            ))}
          </ul>
          <p class="muted small">
            After the last one the delivery fails; a subscription whose every attempt fails for five days is
            paused.
          </p>
        </div>
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
    </div>
  );
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
