import { takeCspViolations } from '../../scripts/lib/browser.ts';

export { startBrowserStack, type BrowserStack } from '../../scripts/lib/browser.ts';

// A page of any browser test that breaks the gateway's Content-Security-Policy fails that test.
afterEach(() => {
  expect(takeCspViolations()).toEqual([]);
});
