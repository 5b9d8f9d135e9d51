import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { ComponentType } from 'react';

/** The address of the page being rendered on the server. */
export interface PageAddress {
  /** The route's parameters (`{ id }` for `/event/:id`). */
  params: Record<string, string | undefined>;
  search: URLSearchParams;
  /** The site's public origin (`https://ingressos.example.com.br`). */
  origin: string;
}

/** What a shared link or a search engine reads of a page: its `<head>`. */
export interface PageHead {
  /** The whole document title, as the page sets it in the browser. */
  title: string;
  description: string;
  /** The page's own path, without what does not change its content. */
  canonicalPath: string;
  /** Pages reached only by their link (unlisted events) stay out of search engines. */
  noindex?: boolean;
  image?: { url: string; width?: number; height?: number; alt: string };
  /** schema.org data (an `Event`, the `Organization`). */
  structuredData?: object;
}

/**
 * A page a remote renders on the server: the component, the API reads (as query keys) its first screen needs, and
 * its head once they are in. A page whose data is missing (an unknown event) answers `notFound` with a head of its own.
 */
export interface ServerPage {
  Page: ComponentType;
  queries(address: PageAddress): QueryKey[];
  head(address: PageAddress, data: QueryClient): PageHead;
  /**
   * Whether the rendered page is not yet what the visitor should see, so its code runs as soon as it has loaded
   * (a promotional code, checked in the browser). Otherwise it runs at the visitor's first click or key.
   */
  unfinished?(address: PageAddress): boolean;
}
