/** Data a server-rendered page carries in `<script type="application/json">` blocks (the CSP allows no inline code). */
export const PAGE_DATA = {
  /** react-query's dehydrated cache: what the page was rendered with. */
  state: 'server-state',
  /** `runtime-config.json`, so the browser need not fetch it. */
  runtimeConfig: 'runtime-config',
  /** The remote's page that renders it (`storefront/Home`). */
  page: 'remote-page',
  /** Whether the page is what the visitor should see, so its code can wait for their first click or key. */
  finished: 'page-finished',
  /** The scripts that take the page over, which the browser fetches ahead once the page has loaded. */
  scripts: 'page-scripts',
} as const;

/** The block's JSON, if the server rendered this page. */
export function readPageData<T>(block: keyof typeof PAGE_DATA): T | undefined {
  const text = document.getElementById(PAGE_DATA[block])?.textContent;
  return text ? (JSON.parse(text) as T) : undefined;
}
