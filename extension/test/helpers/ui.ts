/** Rendering the UI components in happy-dom with a fake message channel: shared by the component tests. */
import { type ComponentChild, render } from 'preact';
import { act } from 'preact/test-utils';
import { ExtensionError, type Send } from '../../lib/messaging.ts';
import type { RequestOf, RequestType, ResponseOf } from '../../lib/protocol.ts';

export type Handlers = {
  [T in RequestType]?: (request: RequestOf<T>) => ResponseOf<T> | Promise<ResponseOf<T>>;
};

/** A `send` answering from handlers, recording every request. */
export function fakeSend(handlers: Handlers) {
  const requests: { type: string; [key: string]: unknown }[] = [];
  const send = (async (request: { type: RequestType }) => {
    requests.push(request as never);
    const handler = handlers[request.type] as ((request: unknown) => unknown) | undefined;
    if (handler === undefined)
      throw new ExtensionError({ kind: 'unknown', message: `no handler for ${request.type}` });
    return handler(request);
  }) as Send;
  return { send, requests };
}

/** Lets pending answers and the renders they cause finish. */
export const settle = async () => {
  for (let i = 0; i < 5; i++) {
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
  }
};

/** Mounts a node in a fresh container; `unmount` takes it away again (call it in `afterEach`). */
export function mounted(node: ComponentChild) {
  const container = document.createElement('div');
  document.body.append(container);
  render(node, container);
  return {
    container,
    byTestId: <T extends Element = HTMLElement>(id: string) =>
      container.querySelector<T>(`[data-testid="${id}"]`),
    unmount: () => {
      render(null, container);
      container.remove();
    },
  };
}

export function type(element: HTMLInputElement | HTMLTextAreaElement, value: string) {
  element.value = value;
  element.dispatchEvent(new Event('input', { bubbles: true }));
}

export function choose(element: HTMLSelectElement, value: string) {
  element.value = value;
  element.dispatchEvent(new Event('change', { bubbles: true }));
}
