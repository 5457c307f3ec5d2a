/**
 * The first-run welcome above the settings (the options page opens on install): what to enter, and where
 * each value comes from.
 */
export function Welcome() {
  return (
    <section class="tw-welcome" data-testid="threadwork-welcome" aria-labelledby="tw-welcome-title">
      <h2 id="tw-welcome-title">Welcome to Threadwork</h2>
      <p>
        Connect Threadwork to your service once; then “Create task” turns any open mail thread into a task.
      </p>
      <ul>
        <li>
          <strong>Service URL</strong>: the address you open the service at. Running it yourself with{' '}
          <code>pnpm start</code>? The origin it prints after <code>ready</code>.
        </li>
        <li>
          <strong>Email</strong>: the email you sign in to the service with.
        </li>
        <li>
          <strong>API key, API secret and key name</strong>: a <em>key + secret</em> from the service's API
          keys page (running locally: the console's <code>/keys</code> page). <code>pnpm start</code> prints a
          demo one on its <code>v1:</code> line (<code>email</code>, <code>api_key</code>,{' '}
          <code>api_secret</code>, <code>api_key_name</code>).
        </li>
      </ul>
      <p>
        Save, allow access to the service when the browser asks, then “Test connection”. Once connected, the
        API keys tab makes more keys, for this extension and for Zapier.
      </p>
    </section>
  );
}
