import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { waitFor } from '@ticketing/testkit';
import { startKafkaMock } from '../lib/kafka-mock.ts';
import { startStack, type Stack } from '../lib/stack.ts';
import { createClient, type Client } from './client.ts';
import { openDatabase, type Database } from './database.ts';
import { busOutage, killProcess, restartPostgres, type FaultContext, type Recovery } from './faults.ts';
import { settle, type MassSend } from './invariants.ts';
import { newLoadRecord, startLoad, type LoadRecord, type Purchase } from './load.ts';
import type { ChaosPlan } from './plan.ts';
import { inBatches, prepareWorld, registerPerson, type World } from './setup.ts';
import { createTimeline } from './timeline.ts';

export type Transport = 'postgres' | 'kafka';

export interface ChaosReport {
  transport: Transport;
  plan: ChaosPlan;
  startedMs: number;
  recoveries: Recovery[];
  record: LoadRecord;
  massSend?: MassSend & { caughtBeforeMailKill?: number };
  /** Attempts by moment and outcome: the load's, then the probes'. */
  load: Client['counts'];
  probes: Client['counts'];
  /** The last round, every user at once, once everything had recovered. */
  afterRecovery: Client['counts'];
  settledMs: number;
  /** What broke: invariants, and answers the product must never give. */
  failures: string[];
  durationMs: number;
  logFile: string;
}

/** The sandbox takes the payment, as the buyer's bank does after the PIX; a repeated confirmation is refused by it. */
function payer(stack: Stack, record: LoadRecord) {
  return async (purchase: Purchase) => {
    const url = `${stack.asaasUrl}/sandbox/payment/${purchase.asaasPaymentId}/confirm`;
    const status = await waitFor(
      () =>
        fetch(url, { method: 'POST', headers: { access_token: 'chaos' } }).then(
          (response) => response.status,
          () => 0,
        ),
      { timeoutMs: 30_000 },
    );
    if (status === 200 || status === 400) purchase.paidAt ??= Date.now();
    else record.problems.push(`the sandbox answered ${status} to a payment`);
  };
}

/** Uploads a mass send of courtesies to `guests` new addresses at the main event. */
async function uploadMassSend(client: Client, world: World, guests: number): Promise<MassSend> {
  const tag = randomBytes(4).toString('hex');
  const emails = Array.from({ length: guests }, (_, i) => `convidado${i}.${tag}@parceiro.example.com.br`);
  const csv =
    '\uFEFFname;email;amount_of_courtesies;event_id\r\n' +
    emails.map((email, i) => `Convidado ${i};${email};1;${world.main}`).join('\r\n');
  const form = new FormData();
  form.append('csvFile', new Blob([csv]), 'convidados.csv');
  const answer = await client.call('POST', '/api/courtesy/mass-send', { token: world.adminToken, form });
  if (answer.status !== 202) throw new Error(`mass send refused: ${answer.status} ${JSON.stringify(answer.body)}`);
  return {
    jobId: answer.body.jobId,
    guests: emails,
    subject: 'Você recebeu uma cortesia: Congresso de Farmácia Clínica',
  };
}

/**
 * Every fault of the plan in turn, the load going on: each process killed (the mass send uploaded just before
 * courtesy, which makes its links, or mail, which sends its invitations), PostgreSQL restarted, the bus down.
 */
async function causeFaults(context: FaultContext, plan: ChaosPlan, recovered: (recovery: Recovery) => void) {
  const { db, stack, shopper } = context;
  let massSend: ChaosReport['massSend'];
  const massSendBefore = plan.kills.find((name) => name === 'courtesy' || name === 'mail') ?? plan.kills[0];
  await sleep(plan.pauseMs);
  for (const name of plan.kills) {
    if (name === massSendBefore) {
      const job = await uploadMassSend(shopper.client, shopper.world, plan.massSendGuests);
      massSend = job;
      // Under way when courtesy dies: some links made, not all.
      await waitFor(
        async () =>
          (await db.rows('select 1 from courtesy.courtesy_links where job_id = $1 limit 1', [job.jobId])).length,
        { timeoutMs: 30_000 },
      ).catch(() => {});
    }
    if (name === 'mail' && massSend) {
      const { subject } = massSend;
      const caught = () => stack.catcher!.messages().filter((message) => message.subject === subject).length;
      await waitFor(() => caught() > 0, { timeoutMs: 30_000 }).catch(() => {});
      massSend.caughtBeforeMailKill = caught();
    }
    recovered(await killProcess(context, name));
    await sleep(plan.pauseMs);
  }
  recovered(await restartPostgres(context));
  await sleep(plan.pauseMs);
  recovered(await busOutage(context, plan.busOutageMs));
  await sleep(plan.pauseMs);
  return massSend;
}

/** Starts the product on `transport`, drives the load through every fault of `plan`, and checks the invariants. */
export async function runChaos(
  plan: ChaosPlan,
  transport: Transport,
  say: (line: string) => void,
): Promise<ChaosReport> {
  const began = Date.now();
  const dataDir = mkdtempSync(join(tmpdir(), `chaos-${transport}-`));
  const logFile = join(tmpdir(), `chaos-${transport}-${new Date().toISOString().replaceAll(':', '-')}.log`);
  const log = createWriteStream(logFile);
  const kafka = transport === 'kafka' ? await startKafkaMock() : undefined;
  let stack: Stack | undefined;
  let db: Database | undefined;
  try {
    stack = await startStack({
      ports: 'free',
      dataDir,
      seed: false,
      kafkaBrokers: kafka?.brokers,
      busLink: !kafka,
      // Every buyer of the load comes from this machine's address: the per-address budget of courtesy look-ups and
      // redemptions would refuse a crowd of them.
      appEnv: { gateway: { COURTESY_RATE_LIMIT_POINTS: '100000' } },
      log: (app, line) => log.write(`[${app}] ${line}\n`),
    });
    const startedMs = Date.now() - began;
    say(`stack up in ${(startedMs / 1000).toFixed(1)} s (logs: ${logFile})`);
    db = openDatabase(stack.postgres.url);
    const timeline = createTimeline();
    const setupClient = createClient(stack.url, timeline);
    const world = await prepareWorld(stack, setupClient, plan);
    const [reader, ...probeBuyers] = await inBatches(4, 4, (i) =>
      registerPerson(stack!, setupClient, `Sonda ${i + 1}`),
    );
    const client = createClient(stack.url, timeline);
    const probeClient = createClient(stack.url, timeline);
    const record = newLoadRecord();
    const shopper = { client, world, record, pay: payer(stack, record) };
    const context: FaultContext = {
      stack,
      probeClient,
      timeline,
      db,
      shopper,
      reader: reader!,
      probeBuyers,
      kafka,
    };
    say(`${plan.users} buyers, 2 events (${plan.rushSpots} spots at the one that sells out), a door staffer ready`);

    const load = startLoad(shopper);
    const recoveries: Recovery[] = [];
    let massSend: ChaosReport['massSend'];
    const failures: string[] = [];
    try {
      massSend = await causeFaults(context, plan, (recovery) => {
        recoveries.push(recovery);
        say(`${recovery.fault}: recovered in ${(recovery.recoveredMs / 1000).toFixed(1)} s`);
      });
    } catch (error) {
      failures.push(`the run stopped early: ${(error as Error).message}`);
    }
    await load.stop();
    shopper.client = createClient(stack.url, timeline);
    if (failures.length === 0) await load.finalRound();
    say(`load stopped after ${record.rounds} rounds; waiting for the product to settle`);

    const evidence = { db, messages: stack.catcher!.messages, world, record, massSend, bus: stack.bus };
    const { broken, settledMs } = await settle(evidence, plan.settleMs);
    failures.push(
      ...broken,
      ...record.problems,
      ...[setupClient, client, probeClient, shopper.client].flatMap((used) => used.problems),
    );
    return {
      transport,
      plan,
      startedMs,
      recoveries,
      record,
      massSend,
      load: client.counts,
      probes: probeClient.counts,
      afterRecovery: shopper.client.counts,
      settledMs,
      failures,
      durationMs: Date.now() - began,
      logFile,
    };
  } finally {
    await db?.close();
    await stack?.stop();
    kafka?.stop();
    log.end();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
