import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * No other service is called while a database transaction of orders is open: a slow catalog, payments, identity or
 * courtesy would otherwise hold locks and connections for as long as it takes. Read from the source: every
 * `.transaction(` callback, and every function handed an open transaction (`trx: Knex.Transaction`, the bus
 * consumers' too), calls neither a client nor a function that calls one, except in what runs once the transaction
 * has ended (`trx.executionPromise.then(…)`).
 */

const SOURCE = join(import.meta.dirname, '../src');
const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
const sources = new Map(files(SOURCE).map((file) => [file.slice(SOURCE.length + 1), readFileSync(file, 'utf8')]));

/** The text from an opening bracket at `open` to its matching close. */
function enclosed(text: string, open: number): string {
  const pairs: Record<string, string> = { '(': ')', '{': '}' };
  const closing = pairs[text[open]!]!;
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === text[open]) depth++;
    else if (text[i] === closing && --depth === 0) return text.slice(open, i + 1);
  }
  throw new Error('unbalanced source');
}

/** Each named function's body, by name. */
function functions(): Map<string, { file: string; params: string; body: string }> {
  const found = new Map<string, { file: string; params: string; body: string }>();
  for (const [file, text] of sources) {
    const pattern =
      /(?:async\s+)?function\s+(\w+)\s*(?:<[^>]*>)?\s*\(|const\s+(\w+)\s*=\s*(?:\w+\([^)]*,\s*)?async\s*\(/g;
    for (const match of text.matchAll(pattern)) {
      const params = enclosed(text, match.index + match[0].length - 1);
      const rest = match.index + match[0].length - 1 + params.length;
      const body = enclosed(text, text.indexOf('{', rest));
      found.set(match[1] ?? match[2]!, { file, params, body });
    }
  }
  return found;
}

const CLIENT_CALL = /\bdeps\.(catalog|payments|identity|courtesy)\.\w+\(/;
/** What runs after the transaction ended. */
const withoutAfterCommit = (body: string) => {
  let rest = body;
  for (let at = rest.indexOf('executionPromise.then('); at >= 0; at = rest.indexOf('executionPromise.then(')) {
    const open = at + 'executionPromise.then'.length;
    rest = rest.slice(0, at) + rest.slice(open + enclosed(rest, open).length);
  }
  return rest;
};

/** Every function that calls another service, directly or through another such function. */
function callers(all: ReturnType<typeof functions>): Set<string> {
  const calling = new Set([...all].filter(([, fn]) => CLIENT_CALL.test(fn.body)).map(([name]) => name));
  for (let grew = true; grew;) {
    grew = false;
    for (const [name, fn] of all) {
      if (calling.has(name)) continue;
      if ([...calling].some((callee) => new RegExp(`\\b${callee}\\(`).test(withoutAfterCommit(fn.body)))) {
        calling.add(name);
        grew = true;
      }
    }
  }
  return calling;
}

const callsAnother = (code: string, calling: Set<string>) =>
  CLIENT_CALL.test(code) || [...calling].some((name) => new RegExp(`\\b${name}\\(`).test(code));

test('the source is read: its clients are called, from functions this check knows', () => {
  const all = functions();
  const calling = callers(all);
  for (const name of ['holdSpots', 'confirmSpots', 'chargeOrder', 'verifiedBuyer', 'sendOwedRefund', 'readOrders']) {
    expect(calling).toContain(name);
  }
  expect(calling).toContain('placeLatePayment');
});

test('no catalog, payments, identity or courtesy call is made inside a database transaction', () => {
  const all = functions();
  const calling = callers(all);
  const offences: string[] = [];
  for (const [file, text] of sources) {
    for (const match of text.matchAll(/\.transaction\(/g)) {
      const callback = withoutAfterCommit(enclosed(text, match.index + match[0].length - 1));
      if (callsAnother(callback, calling)) offences.push(`${file}: a transaction callback`);
    }
  }
  for (const [name, fn] of all) {
    if (!/trx\??:\s*Knex\.Transaction/.test(fn.params)) continue;
    if (callsAnother(withoutAfterCommit(fn.body), calling)) offences.push(`${fn.file}: ${name}(trx)`);
  }
  // The bus hands each consumer an open transaction.
  const consumers = sources.get('consumers/index.ts')!;
  for (const match of consumers.matchAll(/'([\w.-]+)':\s*\(payload, \{[^}]*\}\)\s*=>\s*(\w+)\(/g)) {
    if (calling.has(match[2]!)) offences.push(`consumer of ${match[1]}: ${match[2]}`);
  }
  expect(offences).toEqual([]);
});
