/**
 * The contract between the gateway and the frontends' server-rendering module (`frontends/dist-server/render.js`):
 * the gateway hands over a page request and a way to read the API and the build; the module answers with the whole
 * HTML document, or `null` for a page that is rendered in the browser only.
 */

/** What an API read answered: its status and, for a JSON answer, the parsed body. */
export interface ApiAnswer {
  status: number;
  body: unknown;
}

export interface PageRequest {
  /** The path and query string asked for (`/event/42?promo=FARMA10`). */
  url: string;
  /** The site's public origin, for canonical and Open Graph URLs (`https://ingressos.example.com.br`). */
  origin: string;
  /** A GET of a public API path (`/api/events/42`), answered by the service behind it. */
  readApi(path: string): Promise<ApiAnswer>;
  /** A file of the frontends' build (`index.html`, `storefront/mf-manifest.json`), as text. */
  readBuildFile(path: string): Promise<string>;
}

export interface RenderedPage {
  /** 200, or 404 for an event that does not exist. */
  status: number;
  html: string;
  /**
   * CSP hashes (`sha256-…`) of the `style` attributes in the HTML (components that set CSS variables or
   * `pointer-events` inline): the page's policy allows exactly these, and still no other inline style.
   */
  styleHashes: string[];
}

export interface PageRenderer {
  renderPage(request: PageRequest): Promise<RenderedPage | null>;
}
