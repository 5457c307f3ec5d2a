import { HOST_ATTRIBUTE } from '../gmail/watch.ts';
import { isolateKeys } from '../keyboard.ts';

export interface ShadowHost {
  host: HTMLElement;
  /** Where the UI renders: a container inside the host's open shadow root. */
  mount: HTMLElement;
}

/**
 * An element of ours in the mailbox page: an open shadow root (so tests and assistive tools can reach in)
 * with `styles`, isolated from the page's keyboard shortcuts. The panel brings its own styles with its chunk.
 */
export function createShadowHost(
  document: Document,
  name: string,
  styles: string,
  onKey?: (event: KeyboardEvent) => void,
): ShadowHost {
  const host = document.createElement('threadwork-ui');
  host.setAttribute(HOST_ATTRIBUTE, name);
  const shadow = host.attachShadow({ mode: 'open' });
  const mount = document.createElement('div');
  if (styles !== '') {
    const style = document.createElement('style');
    style.textContent = styles;
    shadow.append(style);
  }
  shadow.append(mount);
  isolateKeys(host, onKey);
  return { host, mount };
}
