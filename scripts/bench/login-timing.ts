/**
 * A refused login takes as long for an unknown e-mail as for a wrong password (the password is checked against a
 * dummy hash when there is no account), so its timing does not tell who has an account. Both kinds of refusal,
 * alternated against the identity service in this run: medians and their ratio (1.00 means they cannot be told apart).
 */
import { makeEmail, startIdentity } from '../../services/identity/test/support.ts';

const ROUNDS = 21;
const identity = await startIdentity();
try {
  /** Milliseconds until a refused login is answered; anything but the 401 stops the measurement. */
  async function refused(email: string): Promise<number> {
    const started = performance.now();
    const response = await identity.request('POST', '/api/auth/login', { body: { email, password: 'nao-e-esta' } });
    await response.arrayBuffer();
    if (response.status !== 401) throw new Error(`login answered ${response.status}, not 401`);
    return performance.now() - started;
  }
  const median = (values: number[]) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)]!;

  const accounts = [];
  for (let i = 0; i < ROUNDS; i++) accounts.push(await identity.registered());
  await refused(makeEmail('aquecimento')); // warm-up
  const wrongPassword: number[] = [];
  const unknownEmail: number[] = [];
  for (const account of accounts) {
    wrongPassword.push(await refused(account.email));
    unknownEmail.push(await refused(makeEmail('ninguem')));
  }
  const known = median(wrongPassword);
  const unknown = median(unknownEmail);
  console.log(
    `Refused login: wrong password ${known.toFixed(1)} ms, unknown e-mail ${unknown.toFixed(1)} ms (medians of ${ROUNDS})`,
  );
  console.log(`               unknown ÷ wrong password ${(unknown / known).toFixed(2)}`);
} finally {
  await identity.stop();
}
