/**
 * The first-run welcome above the settings (the settings page opens on install): what to enter, and where
 * each value comes from, in a mailbox user's words.
 */
export function Welcome() {
  return (
    <section class="tw-welcome" data-testid="threadwork-welcome" aria-labelledby="tw-welcome-title">
      <h2 id="tw-welcome-title">Welcome to Threadwork</h2>
      <p>
        Connect Threadwork to your account once; then “Create task” turns any open email thread into a task.
      </p>
      <ul>
        <li>
          <strong>Service URL</strong>: the address you open Threadwork at in your browser, such as
          https://app.example.com.
        </li>
        <li>
          <strong>Email</strong>: the email you sign in with.
        </li>
        <li>
          <strong>API key, API secret and key name</strong>: a <em>key + secret</em> from the API keys page of
          your account (the secret is shown once, when the key is made: copy it from there).
        </li>
      </ul>
      <p>
        Save: your browser asks whether Threadwork may reach that address; allow it. Once connected, the API
        keys tab makes more keys, for this extension and for Zapier.
      </p>
    </section>
  );
}
