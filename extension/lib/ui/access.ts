/**
 * Access to the service's origin (an optional host permission), from the extension's own pages: the panel's
 * frame and the settings page. The browser asks the user only on a click in one of them: `ask` must be called
 * synchronously in the click's handler (before any `await`), which is why the panel asks itself rather than
 * through a message to the background. Some browsers refuse to ask from a page in a frame (Firefox gives such
 * a page no `permissions` API at all): that answer is `refused`, and the panel then opens the settings page
 * in a tab at its "Allow access" button. Whether access is there is the background's to say (a `permission`
 * failure), since it is the one that calls the service.
 */
import browser from 'webextension-polyfill';
import { originPattern } from '../service-url.ts';

export type AccessAnswer = 'granted' | 'denied' | 'refused';

export interface Access {
  /** Asks the browser, which may prompt the user. Call it synchronously in a click's handler. */
  ask(origin: string): Promise<AccessAnswer>;
  /**
   * Calls `maybeGranted` when access may have been granted meanwhile: the browser says so, or the user comes
   * back to this page (from the settings tab the panel opened). Answers the unsubscribe.
   */
  watch(maybeGranted: () => void): () => void;
}

export const browserAccess: Access = {
  ask(origin) {
    let request: Promise<boolean>;
    try {
      request = browser.permissions.request({ origins: [originPattern(origin)] });
    } catch {
      return Promise.resolve('refused');
    }
    return request.then(
      (granted) => (granted ? 'granted' : 'denied'),
      () => 'refused',
    );
  },
  watch(maybeGranted) {
    const onVisible = () => {
      if (document.visibilityState === 'visible') maybeGranted();
    };
    const onAdded = () => maybeGranted();
    document.addEventListener('visibilitychange', onVisible);
    browser.permissions?.onAdded.addListener(onAdded);
    return () => {
      document.removeEventListener('visibilitychange', onVisible);
      browser.permissions?.onAdded.removeListener(onAdded);
    };
  },
};
