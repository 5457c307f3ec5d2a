import type { Meta } from '../schemas/common.ts';
import { attachMeta } from './meta.ts';

/** One page of a list endpoint. */
export interface Page<T> {
  readonly data: T[];
  readonly meta: Meta;
  readonly hasMore: boolean;
  /** The cursor of the next page; null on the last one. */
  readonly nextCursor: string | null;
  /** The next page, or null when this is the last one. */
  nextPage(): Promise<Page<T> | null>;
}

/** Loads the page that starts at `cursor`. */
export type PageLoader<T> = (cursor: string) => Promise<Page<T>>;

export function createPage<T>(data: T[], meta: Meta, loadPage: PageLoader<T>): Page<T> {
  const hasMore = meta.pagination?.has_more ?? false;
  const nextCursor = meta.pagination?.next_cursor ?? null;
  const page: Page<T> = {
    data: attachMeta(data, meta),
    meta,
    hasMore,
    nextCursor,
    nextPage: () =>
      hasMore && nextCursor !== null ? loadPage(nextCursor) : Promise.resolve<Page<T> | null>(null),
  };
  return attachMeta(page, meta);
}

/**
 * What a list method returns: `await` it for the first page, or `for await` over it for every item of every
 * page, fetched one page at a time.
 */
export class PagePromise<T> extends Promise<Page<T>> implements AsyncIterable<T> {
  // `then`/`catch` derived from a PagePromise are plain promises: they do not resolve to a Page.
  static override get [Symbol.species]() {
    return Promise;
  }

  static from<T>(firstPage: Promise<Page<T>>): PagePromise<T> {
    return new PagePromise<T>((resolve, reject) => {
      firstPage.then(resolve, reject);
    });
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    let page: Page<T> | null = await this;
    const seenCursors = new Set<string>();
    while (page !== null) {
      yield* page.data;
      // A cursor the service already handed out would start the same walk again: stop instead of looping.
      if (page.nextCursor !== null) {
        if (seenCursors.has(page.nextCursor)) return;
        seenCursors.add(page.nextCursor);
      }
      page = await page.nextPage();
    }
  }
}
