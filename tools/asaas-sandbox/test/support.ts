import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomInt } from 'node:crypto';
import { makeCpf, waitFor } from '@ticketing/testkit';
import { startSandbox, type SandboxOptions } from '../src/sandbox.ts';

export const API_KEY = '$aact_hmlg_test_key';
export const WEBHOOK_TOKEN = 'segredo-do-webhook';

export const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/**
 * A CNPJ with valid check digits, written here from the Receita Federal's rule (independent of the sandbox's
 * validator): each character counts its code minus 48 (digits 0–9, letters 17–42), weights 2..9 from the right.
 */
export function makeCnpj({ alphanumeric = false } = {}): string {
  const alphabet = alphanumeric ? '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ' : '0123456789';
  const base = Array.from({ length: 12 }, () => alphabet[randomInt(alphabet.length)]!);
  if (alphanumeric && base.every((char) => /\d/.test(char))) base[3] = 'K';
  const checkDigit = (chars: string[]) => {
    const sum = [...chars].reverse().reduce((total, char, i) => total + (char.charCodeAt(0) - 48) * (2 + (i % 8)), 0);
    const rest = sum % 11;
    return String(rest < 2 ? 0 : 11 - rest);
  };
  base.push(checkDigit(base));
  base.push(checkDigit(base));
  const cnpj = base.join('');
  return `${cnpj.slice(0, 2)}.${cnpj.slice(2, 5)}.${cnpj.slice(5, 8)}/${cnpj.slice(8, 12)}-${cnpj.slice(12)}`;
}

export interface Delivery {
  headers: IncomingMessage['headers'];
  body: any;
}

/** A sandbox whose webhooks reach a local receiver (`received`; it answers 200), with helpers to call its API. */
export async function startTestSandbox(options: SandboxOptions = {}) {
  const received: Delivery[] = [];
  const receiver = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    received.push({ headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString()) });
    res.writeHead(200).end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const sandbox = await startSandbox({
    apiKey: API_KEY,
    webhookUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhook`,
    webhookToken: WEBHOOK_TOKEN,
    webhookRetryScale: 0.001,
    ...options,
  });

  async function api(method: string, path: string, body?: unknown) {
    const response = await fetch(sandbox.apiUrl + path, {
      method,
      headers: { access_token: API_KEY, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as any };
  }

  /** Answers the 200's body; fails the test on any other status. */
  async function ok(method: string, path: string, body?: unknown) {
    const answer = await api(method, path, body);
    expect(answer).toMatchObject({ status: 200 });
    return answer.body;
  }

  const newCustomer = (fields: Record<string, unknown> = {}) =>
    ok('POST', '/customers', { name: 'João Ninguém', cpfCnpj: makeCpf(), ...fields });

  async function newPayment(fields: Record<string, unknown> = {}) {
    const customer = await newCustomer();
    return ok('POST', '/payments', {
      customer: customer.id,
      billingType: 'PIX',
      value: 155,
      dueDate: inDays(3),
      externalReference: `pedido-${randomInt(1e9)}`,
      ...fields,
    });
  }

  return {
    sandbox,
    received,
    api,
    ok,
    newCustomer,
    newPayment,
    /** Waits until every webhook was delivered. */
    settled: () => waitFor(() => sandbox.pendingWebhooks === 0),
    /** The events received for a payment (or a nota fiscal), in the order they arrived. */
    eventsOf: (id: string) =>
      received
        .filter((delivery) => delivery.body.payment?.id === id || delivery.body.invoice?.id === id)
        .map((delivery) => delivery.body.event as string),
    async close() {
      await sandbox.close();
      await new Promise((resolve) => receiver.close(resolve));
    },
  };
}

export type TestSandbox = Awaited<ReturnType<typeof startTestSandbox>>;
