import { config } from 'zod';
// The site's styles belong to the entry, so the page links them in its <head>: a page rendered on the server is
// styled before any script runs.
import '@ticketing/shared/styles.css';
import './layout/layout.css';

// The site's CSP forbids eval, and zod's test for it (compiling a function once) is reported as a violation.
// Its configuration lives on `globalThis`, so this covers the remotes' copies of zod too.
config({ jitless: true });

// An async boundary: the shared modules (React, the router…) are negotiated with the remotes before any runs.
void import('./bootstrap.tsx');
